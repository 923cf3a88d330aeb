#include "metricssource.h"

#include "common/dialogs.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

QString settingsKey(const QString &workspacePath)
{
    return QStringLiteral("metricsSources/")
        + QString::fromLatin1(workspacePath.toUtf8().toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString utcText(const QDateTime &time)
{
    return time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
}

} // namespace

store::PrometheusSource MetricsSourceSettings::source() const
{
    return store::prometheusSource(url, tokenFile, verifyTls);
}

std::optional<MetricsSourceSettings> MetricsSourceSettings::load(const QString &workspacePath)
{
    QSettings store;
    store.beginGroup(settingsKey(workspacePath));
    if (!store.contains(QStringLiteral("url")))
        return std::nullopt;
    MetricsSourceSettings settings;
    settings.url = store.value(QStringLiteral("url")).toString();
    settings.tokenFile = store.value(QStringLiteral("tokenFile")).toString();
    settings.verifyTls = store.value(QStringLiteral("verifyTls"), true).toBool();
    settings.refreshMinutes = std::clamp(store.value(QStringLiteral("refreshMinutes"), 60).toInt(), 5, 1440);
    return settings;
}

void MetricsSourceSettings::save(const QString &workspacePath, const MetricsSourceSettings &settings)
{
    QSettings store;
    store.beginGroup(settingsKey(workspacePath));
    store.setValue(QStringLiteral("url"), settings.url);
    store.setValue(QStringLiteral("tokenFile"), settings.tokenFile);
    store.setValue(QStringLiteral("verifyTls"), settings.verifyTls);
    store.setValue(QStringLiteral("refreshMinutes"), settings.refreshMinutes);
}

void MetricsSourceSettings::forget(const QString &workspacePath)
{
    QSettings store;
    store.remove(settingsKey(workspacePath));
}

// What the worker thread hands back.
struct MetricsSourceConnection::Outcome {
    qint64 fromHour = 0;
    qint64 toHour = 0;
    store::PrometheusPull pull;
    QString error;
};

MetricsSourceConnection::MetricsSourceConnection(store::Workspace &workspace, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
{
    m_timer.setSingleShot(false);
    connect(&m_timer, &QTimer::timeout, this, &MetricsSourceConnection::refreshNow);
}

MetricsSourceConnection::~MetricsSourceConnection()
{
    if (m_worker) {
        *m_cancelled = true;
        m_worker->wait();
    }
}

void MetricsSourceConnection::connectTo(const MetricsSourceSettings &settings)
{
    const store::PrometheusSource source = settings.source();  // throws before anything changes
    disconnectSource();
    m_settings = settings;
    m_source = source;
    m_timer.start(settings.refreshMinutes * 60 * 1000);
    refreshNow();
}

void MetricsSourceConnection::disconnectSource()
{
    if (m_worker)
        *m_cancelled = true;  // its outcome is dropped when it finishes
    m_settings.reset();
    m_timer.stop();
    m_asOf = {};
    m_lastPull = {};
    m_lastError.clear();
    emit stateChanged();
}

QDateTime MetricsSourceConnection::nextPull() const
{
    return m_timer.isActive() ? QDateTime::currentDateTimeUtc().addMSecs(m_timer.remainingTime()) : QDateTime();
}

void MetricsSourceConnection::refreshNow()
{
    if (!m_settings || m_worker || m_workspace.isReadOnly())
        return;
    auto outcome = std::make_shared<Outcome>();
    outcome->toHour = QDateTime::currentSecsSinceEpoch() / 3600;
    outcome->fromHour = store::nextPullStart(m_workspace, m_source, outcome->toHour);
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    m_cancelled = cancelled;
    m_outcome = outcome;
    const store::PrometheusSource source = m_source;
    m_worker.reset(QThread::create([outcome, cancelled, source] {
        if (outcome->fromHour >= outcome->toHour)
            return;
        try {
            outcome->pull = store::pullServingMetrics(source, outcome->fromHour, outcome->toHour,
                                                      [cancelled](int, int) { return !cancelled->load(); });
        } catch (const store::StoreError &e) {
            outcome->error = e.message();
        } catch (const std::bad_alloc &) {
            outcome->error = tr("not enough memory for the answer");
        }
    }));
    connect(m_worker.get(), &QThread::finished, this, &MetricsSourceConnection::finishPull);
    m_worker->start();
    emit stateChanged();
}

void MetricsSourceConnection::finishPull()
{
    const std::shared_ptr<Outcome> outcome = m_outcome;
    const bool cancelled = m_cancelled && m_cancelled->load();
    m_worker.release()->deleteLater();
    m_outcome.reset();
    if (cancelled || !m_settings)
        return;
    m_lastPull = QDateTime::currentDateTimeUtc();
    if (!outcome->error.isEmpty()) {
        m_lastError = outcome->error;
    } else {
        try {
            if (outcome->fromHour < outcome->toHour)
                store::storePull(m_workspace, m_source, outcome->pull, outcome->fromHour, outcome->toHour);
            m_lastError.clear();
            m_asOf = QDateTime::fromSecsSinceEpoch(outcome->toHour * 3600, Qt::UTC);
        } catch (const store::StoreError &e) {
            m_lastError = e.message();
        }
    }
    emit stateChanged();
}

QString MetricsSourceConnection::statusText() const
{
    if (!m_settings)
        return {};
    const QString where = m_source.url.toString();
    if (m_workspace.isReadOnly())
        return tr("Metrics source %1: not pulled, the workspace is read-only.").arg(where);
    QString text;
    if (m_worker)
        text = tr("Metrics from %1: pulling…").arg(where);
    else if (m_asOf.isValid())
        text = tr("Metrics from %1 as of %2.").arg(where, utcText(m_asOf));
    else
        text = tr("Metrics from %1: not pulled yet.").arg(where);
    if (!m_lastError.isEmpty() && !m_worker)
        text += QLatin1Char(' ') + tr("The last pull, at %1, failed: %2").arg(utcText(m_lastPull), m_lastError);
    if (m_timer.isActive() && !m_worker)
        text += QLatin1Char(' ') + tr("Next pull at %1.").arg(utcText(nextPull()));
    return text;
}

MetricsSourceDialog::MetricsSourceDialog(const std::optional<MetricsSourceSettings> &current, QWidget *parent)
    : QDialog(parent)
{
    setObjectName("metricsSourceDialog");
    setWindowTitle(tr("Connect Metrics Source"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("A Prometheus server holding vLLM's and NVIDIA DCGM-exporter's series. The hours not "
                                "yet stored are pulled now and then on the interval below, into the workspace's "
                                "serving metrics (Tracking ▸ Serving)."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    m_url = new QLineEdit(this);
    m_url->setObjectName("metricsSourceUrl");
    m_url->setPlaceholderText(QStringLiteral("https://prometheus.example.net:9090"));
    m_url->setToolTip(tr("http(s)://host:port[/prefix]: no user name, password or query (a token goes in a file)"));
    form->addRow(tr("Server &URL"), m_url);
    auto *tokenRow = new QHBoxLayout;
    m_tokenFile = new QLineEdit(this);
    m_tokenFile->setObjectName("metricsSourceTokenFile");
    m_tokenFile->setPlaceholderText(tr("none (or HEADROOM_PROMETHEUS_TOKEN)"));
    m_tokenFile->setToolTip(tr("A file whose first line is the bearer token; the token itself is never stored"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    tokenRow->addWidget(m_tokenFile, 1);
    tokenRow->addWidget(browse);
    form->addRow(tr("Token file"), tokenRow);
    m_verifyTls = new QCheckBox(tr("Check the server's TLS certificate"), this);
    m_verifyTls->setObjectName("metricsSourceVerifyTls");
    m_verifyTls->setChecked(true);
    form->addRow(QString(), m_verifyTls);
    m_refresh = new QSpinBox(this);
    m_refresh->setObjectName("metricsSourceRefresh");
    m_refresh->setRange(5, 1440);
    m_refresh->setValue(60);
    m_refresh->setSuffix(tr(" min"));
    form->addRow(tr("&Refresh every"), m_refresh);
    layout->addLayout(form);
    m_error = new QLabel(this);
    m_error->setObjectName("metricsSourceError");
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color:#c0392b"));
    m_error->hide();
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    if (current) {
        m_url->setText(current->url);
        m_tokenFile->setText(current->tokenFile);
        m_verifyTls->setChecked(current->verifyTls);
        m_refresh->setValue(current->refreshMinutes);
        QPushButton *disconnect = buttons->addButton(tr("&Disconnect"), QDialogButtonBox::DestructiveRole);
        disconnect->setObjectName("metricsSourceDisconnect");
        connect(disconnect, &QPushButton::clicked, this, [this] {
            m_disconnect = true;
            QDialog::accept();
        });
    }
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &MetricsSourceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::openFileName(this, tr("Bearer token file"), tr("All files (*)"));
        if (!path.isEmpty())
            m_tokenFile->setText(path);
    });
    resize(520, sizeHint().height());
}

MetricsSourceSettings MetricsSourceDialog::settings() const
{
    MetricsSourceSettings settings;
    settings.url = m_url->text().trimmed();
    settings.tokenFile = m_tokenFile->text().trimmed();
    settings.verifyTls = m_verifyTls->isChecked();
    settings.refreshMinutes = m_refresh->value();
    return settings;
}

void MetricsSourceDialog::accept()
{
    try {
        settings().source();
    } catch (const store::StoreError &e) {
        m_error->setText(e.message());
        m_error->show();
        return;
    }
    QDialog::accept();
}

} // namespace headroom::ui
