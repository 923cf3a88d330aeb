#include "trackingchargebackpanel.h"

#include "trackingserving.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "engine/common/errors.h"
#include "store/common/exportfile.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QElapsedTimer>
#include <QFontDatabase>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

const QString kErrorStyle = QStringLiteral("<span style='color:#c0392b'>%1</span>");

// What the worker thread hands back.
struct LoadOutcome {
    std::shared_ptr<store::ChargebackInputs> inputs;
    QString error;
    bool cancelled = false;
    double seconds = 0;
};

qint64 dayStart(const QDate &date)
{
    return QDateTime(date, QTime(0, 0), QTimeZone::utc()).toSecsSinceEpoch();
}

QDate utcDate(qint64 seconds)
{
    return QDateTime::fromSecsSinceEpoch(seconds, QTimeZone::utc()).date();
}

} // namespace

TrackingChargebackPanel::TrackingChargebackPanel(store::Workspace &workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    setObjectName("trackingChargebackPanel");

    auto *inputs = new QWidget;
    auto *inputsLayout = new QVBoxLayout(inputs);
    auto *filesBox = new QGroupBox(tr("Shared pool"), inputs);
    auto *filesLayout = new QVBoxLayout(filesBox);
    const auto fileRow = [&](QLineEdit *&edit, const char *name, const QString &label, const QString &tip,
                             const QString &caption) {
        auto *title = new QLabel(label, filesBox);
        edit = new QLineEdit(filesBox);
        edit->setObjectName(QLatin1String(name));
        edit->setToolTip(tip);
        edit->setPlaceholderText(tr("path of a .csv file"));
        title->setBuddy(edit);
        auto *browse = new QPushButton(tr("Browse…"), filesBox);
        browse->setToolTip(tip);
        QLineEdit *target = edit;
        connect(browse, &QPushButton::clicked, this, [this, target, caption] { this->browse(target, caption); });
        auto *row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(browse);
        filesLayout->addWidget(title);
        filesLayout->addLayout(row);
        connect(edit, &QLineEdit::textChanged, this, &TrackingChargebackPanel::updateButtons);
    };
    fileRow(m_claims, "chargebackClaims", tr("&Claims ledger (CSV)"),
            tr("Who held which GPU of which machine, when and how: tenant, resource_id, resource_gpus, gpu, mode "
               "(mig, time-slice, mps, over-commit, exclusive), start, end, and gpu_type, profile, share, "
               "resident_gib, namespace, model, deployment where they apply (core/store/README.md)."),
            tr("Open a GPU claims ledger"));
    fileRow(m_focus, "chargebackFocus", tr("&FOCUS export (CSV)"),
            tr("The bill: every charge whose ResourceId names a machine of the ledger is split over its tenants."),
            tr("Open a FOCUS cost-and-usage export"));
    auto *loadRow = new QHBoxLayout;
    m_load = new QPushButton(tr("C&harge back"), filesBox);
    m_load->setObjectName("chargebackLoad");
    m_load->setToolTip(tr("Read both files and split the pool's bill (Ctrl+Return)"));
    m_load->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_cancel = new QPushButton(tr("Cancel"), filesBox);
    m_cancel->setObjectName("chargebackCancel");
    loadRow->addWidget(m_load, 1);
    loadRow->addWidget(m_cancel);
    filesLayout->addLayout(loadRow);
    m_progress = new QProgressBar(filesBox);
    m_progress->setObjectName("chargebackProgress");
    m_progress->setRange(0, 1000);
    filesLayout->addWidget(m_progress);
    m_tokens = new QLabel(filesBox);
    m_tokens->setObjectName("chargebackTokens");
    m_tokens->setWordWrap(true);
    filesLayout->addWidget(m_tokens);
    inputsLayout->addWidget(filesBox);

    auto *rulesBox = new QGroupBox(tr("How shares are counted"), inputs);
    auto *form = new QFormLayout(rulesBox);
    m_basis = new QComboBox(rulesBox);
    m_basis->setObjectName("chargebackBasis");
    m_basis->addItem(tr("Compute slices (of 7)"), int(engine::MigBasis::Compute));
    m_basis->addItem(tr("Memory slices (of 8)"), int(engine::MigBasis::Memory));
    m_basis->addItem(tr("The larger of the two"), int(engine::MigBasis::Larger));
    m_basis->setToolTip(tr("A MIG instance's share of its GPU: 3g.40gb is 3/7 by compute, 4/8 by memory"));
    form->addRow(tr("MIG &basis:"), m_basis);
    m_idle = new QComboBox(rulesBox);
    m_idle->setObjectName("chargebackIdle");
    m_idle->addItem(tr("Shown apart"), int(engine::IdleShare::Apart));
    m_idle->addItem(tr("Spread pro rata"), int(engine::IdleShare::ProRata));
    m_idle->setToolTip(tr("What no claim held: its own line, or spread over each charge's claims by their slice-hours"));
    form->addRow(tr("&Idle capacity:"), m_idle);
    m_by = new QComboBox(rulesBox);
    m_by->setObjectName("chargebackBy");
    m_by->addItem(tr("Tenant"), int(engine::ChargebackBy::Tenant));
    m_by->addItem(tr("Model"), int(engine::ChargebackBy::Model));
    m_by->addItem(tr("Namespace"), int(engine::ChargebackBy::Namespace));
    form->addRow(tr("&Group by:"), m_by);
    m_wholeSpan = new QCheckBox(tr("&Whole span of the charges"), rulesBox);
    m_wholeSpan->setObjectName("chargebackWholeSpan");
    m_wholeSpan->setChecked(true);
    form->addRow(m_wholeSpan);
    m_from = new QDateEdit(rulesBox);
    m_from->setObjectName("chargebackFrom");
    m_from->setCalendarPopup(true);
    m_from->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    m_from->setToolTip(tr("Charges starting on or after this day (UTC)"));
    m_to = new QDateEdit(rulesBox);
    m_to->setObjectName("chargebackTo");
    m_to->setCalendarPopup(true);
    m_to->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    m_to->setToolTip(tr("Charges starting on or before this day (UTC), the day included"));
    form->addRow(tr("Fr&om (UTC):"), m_from);
    form->addRow(tr("&To (UTC):"), m_to);
    for (QComboBox *box : {m_basis, m_idle, m_by}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    inputsLayout->addWidget(rulesBox);
    m_status = new QLabel(inputs);
    m_status->setObjectName("chargebackStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setMinimumHeight(m_status->fontMetrics().lineSpacing() * 4);
    m_status->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    inputsLayout->addWidget(m_status);
    inputsLayout->addStretch(1);

    auto *results = new QWidget;
    auto *resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    m_tabs = new QTabWidget(results);
    m_tabs->setObjectName("chargebackTabs");
    m_shares = new QTableWidget(results);
    m_shares->setObjectName("chargebackShares");
    m_shares->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_shares->verticalHeader()->hide();
    m_shares->setAlternatingRowColors(true);
    m_shares->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_shares->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_compare = new ChartPanel(results);
    m_compare->setObjectName("chargebackCompareChart");
    m_trend = new ChartPanel(results);
    m_trend->setObjectName("chargebackTrendChart");
    m_kueue = new QPlainTextEdit(results);
    m_kueue->setObjectName("chargebackKueue");
    m_kueue->setReadOnly(true);
    m_kueue->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs->addTab(m_shares, tr("Shares"));
    m_tabs->addTab(m_compare, tr("Slice-hours vs quota"));
    m_tabs->addTab(m_trend, tr("Trend"));
    m_tabs->addTab(m_kueue, tr("Kueue configuration"));
    resultsLayout->addWidget(m_tabs, 1);
    auto *exportRow = new QHBoxLayout;
    m_exportCsv = new QPushButton(tr("E&xport allocation CSV…"), results);
    m_exportCsv->setObjectName("chargebackExportCsv");
    m_exportCsv->setToolTip(tr("FOCUS 1.3-style allocation rows: EffectiveCost per key with AllocatedMethodId, "
                               "AllocatedResourceId and AllocatedTags"));
    m_saveKueue = new QPushButton(tr("&Save Kueue configuration…"), results);
    m_saveKueue->setObjectName("chargebackSaveKueue");
    exportRow->addStretch(1);
    exportRow->addWidget(m_exportCsv);
    exportRow->addWidget(m_saveKueue);
    resultsLayout->addLayout(exportRow);

    auto *scroll = new QScrollArea;
    scroll->setWidget(inputs);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(300);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(scroll);
    splitter->addWidget(results);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({300, 950});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_load, &QPushButton::clicked, this, [this] { load(m_claims->text().trimmed(), m_focus->text().trimmed()); });
    connect(m_cancel, &QPushButton::clicked, this, &TrackingChargebackPanel::cancel);
    for (QComboBox *box : {m_basis, m_idle, m_by})
        connect(box, &QComboBox::currentIndexChanged, this, &TrackingChargebackPanel::recompute);
    connect(m_wholeSpan, &QCheckBox::toggled, this, [this] {
        updateButtons();
        recompute();
    });
    connect(m_from, &QDateEdit::dateChanged, this, &TrackingChargebackPanel::recompute);
    connect(m_to, &QDateEdit::dateChanged, this, &TrackingChargebackPanel::recompute);
    connect(m_exportCsv, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::exportFileName(this, tr("Export the allocation"), QStringLiteral("chargeback.csv"),
                                                     tr("CSV files (*.csv)"), {QStringLiteral("csv")});
        if (!path.isEmpty())
            exportAllocation(path);
    });
    connect(m_saveKueue, &QPushButton::clicked, this, [this] {
        const QString path = Dialogs::exportFileName(this, tr("Save the Kueue configuration"),
                                                     QStringLiteral("kueue-slices.yaml"), tr("YAML files (*.yaml)"),
                                                     {QStringLiteral("yaml")});
        if (!path.isEmpty())
            saveKueueConfig(path);
    });
    m_compare->setFigure(emptyFigure(tr("Chargeback"), tr("Choose a claims ledger and a FOCUS export, then Charge back.")));
    m_trend->setFigure(emptyFigure(tr("Chargeback trend"), tr("Nothing charged back yet.")));
    m_status->setText(tr("Choose the claims ledger and the FOCUS export of a shared pool."));
    updateButtons();
}

TrackingChargebackPanel::~TrackingChargebackPanel()
{
    if (m_worker) {
        if (m_cancelled)
            *m_cancelled = true;
        m_worker->wait();
    }
}

bool TrackingChargebackPanel::isRunning() const
{
    return m_worker && m_worker->isRunning();
}

QString TrackingChargebackPanel::statusText() const
{
    return m_status->text();
}

void TrackingChargebackPanel::updateButtons()
{
    const bool running = isRunning();
    m_load->setEnabled(!running && !m_claims->text().trimmed().isEmpty() && !m_focus->text().trimmed().isEmpty());
    m_cancel->setEnabled(running);
    m_from->setEnabled(!m_wholeSpan->isChecked() && m_inputs);
    m_to->setEnabled(!m_wholeSpan->isChecked() && m_inputs);
    m_exportCsv->setEnabled(m_run.has_value());
    m_saveKueue->setEnabled(m_run.has_value());
}

void TrackingChargebackPanel::browse(QLineEdit *edit, const QString &caption)
{
    const QString path = Dialogs::openFileName(this, caption, tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        edit->setText(path);
}

void TrackingChargebackPanel::load(const QString &claimsPath, const QString &focusPath)
{
    if (isRunning())
        return;
    m_claims->setText(claimsPath);
    m_focus->setText(focusPath);
    if (claimsPath.isEmpty() || focusPath.isEmpty()) {
        m_status->setText(kErrorStyle.arg(tr("Choose both the claims ledger and the FOCUS export.").toHtmlEscaped()));
        return;
    }
    // The workspace is read here, on its own thread; the worker only reads files.
    const std::vector<engine::GpuSpec> catalog = m_workspace.gpus();
    const bool imported = !m_workspace.servingMetricsImports().empty();
    const engine::ServingHours hours = imported ? m_workspace.servingHours() : engine::ServingHours{};
    auto outcome = std::make_shared<LoadOutcome>();
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    m_cancelled = cancelled;
    QPointer<QProgressBar> bar = m_progress;
    m_worker.reset(QThread::create([outcome, cancelled, bar, catalog, hours, claimsPath, focusPath] {
        QElapsedTimer timer;
        timer.start();
        try {
            store::FocusOptions options;
            options.progress = [bar, cancelled](double share) {
                if (bar)
                    QMetaObject::invokeMethod(bar, "setValue", Qt::QueuedConnection, Q_ARG(int, int(share * 950)));
                return !cancelled->load();
            };
            outcome->inputs = std::make_shared<store::ChargebackInputs>(
                store::readChargebackInputs(catalog, hours, claimsPath, focusPath, {}, options));
        } catch (const store::StoreError &e) {
            outcome->error = e.message();
        } catch (const engine::InputError &e) {
            outcome->error = QString::fromUtf8(e.what());
        } catch (const store::FocusImportCancelled &) {
            outcome->cancelled = true;
        } catch (const std::bad_alloc &) {
            outcome->error = QObject::tr("not enough memory to read the files");
        }
        outcome->cancelled = outcome->cancelled || cancelled->load();
        outcome->seconds = double(timer.nsecsElapsed()) / 1e9;
    }));
    connect(m_worker.get(), &QThread::finished, this, [this, outcome, imported] {
        m_worker.release()->deleteLater();
        bool loaded = false;
        if (outcome->cancelled) {
            m_status->setText(tr("Cancelled: the shares shown are those charged back before."));
        } else if (!outcome->error.isEmpty()) {
            m_status->setText(kErrorStyle.arg(tr("Not charged back: %1").arg(outcome->error).toHtmlEscaped()));
        } else {
            m_inputs = outcome->inputs;
            loaded = true;
            const QSignalBlocker blockFrom(m_from);
            const QSignalBlocker blockTo(m_to);
            m_from->setDate(utcDate(m_inputs->firstCharge));
            m_to->setDate(utcDate(m_inputs->lastCharge - 1));
            m_tokens->setText(imported ? tr("Tokens from the workspace's serving-metrics imports, by each claim's deployment.")
                                       : tr("No serving metrics imported: cost per million tokens is not shown "
                                            "(Serving tab ▸ Import metrics)."));
            recompute();
            if (m_run)
                m_status->setText(tr("Read %1 claims and %2 charge rows in %3 s. %4")
                                      .arg(m_inputs->claims.size())
                                      .arg(m_inputs->charges.rows.size())
                                      .arg(QString::number(outcome->seconds, 'f', 2))
                                      .arg(m_status->text()));
        }
        m_progress->setValue(loaded ? 1000 : 0);
        updateButtons();
        emit finished(loaded);
    });
    m_progress->setValue(0);
    m_status->setText(tr("Reading %1 and %2…").arg(QFileInfo(claimsPath).fileName(), QFileInfo(focusPath).fileName()));
    m_worker->start();
    updateButtons();
}

void TrackingChargebackPanel::cancel()
{
    if (m_cancelled)
        *m_cancelled = true;
}

void TrackingChargebackPanel::recompute()
{
    if (!m_inputs)
        return;
    ChargebackRun run;
    run.options.basis = engine::MigBasis(m_basis->currentData().toInt());
    run.options.idle = engine::IdleShare(m_idle->currentData().toInt());
    run.by = engine::ChargebackBy(m_by->currentData().toInt());
    if (m_wholeSpan->isChecked()) {
        run.options.from = m_inputs->firstCharge;
        run.options.to = m_inputs->lastCharge;
    } else {
        run.options.from = dayStart(m_from->date());
        run.options.to = dayStart(m_to->date().addDays(1));
    }
    if (run.options.to <= run.options.from) {
        m_status->setText(kErrorStyle.arg(tr("The period must end after it starts.").toHtmlEscaped()));
        return;
    }
    try {
        run.result = store::runChargeback(*m_inputs, run.options);
    } catch (const engine::InputError &e) {
        m_status->setText(kErrorStyle.arg(tr("Not charged back: %1").arg(QString::fromUtf8(e.what())).toHtmlEscaped()));
        return;
    }
    run.claimsFile = QFileInfo(m_inputs->claimsPath).fileName();
    run.focusFile = QFileInfo(m_inputs->focusPath).fileName();
    run.kueueConfig = QString::fromStdString(engine::kueueQuotaConfig(m_inputs->resources, m_inputs->claims, run.options.basis));
    m_run = run;

    const DeckTable table = chargebackTable(run);
    m_shares->clear();
    m_shares->setColumnCount(int(table.columns.size()));
    m_shares->setHorizontalHeaderLabels(table.columns);
    m_shares->setRowCount(int(table.rows.size()));
    for (int r = 0; r < table.rows.size(); ++r)
        for (int c = 0; c < table.rows[r].size(); ++c) {
            auto *item = new QTableWidgetItem(table.rows[r][c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (r + 1 == table.rows.size()) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_shares->setItem(r, c, item);
        }
    m_compare->setFigure(chargebackFigure(run));
    m_trend->setFigure(chargebackTrendFigure(run));
    m_kueue->setPlainText(run.kueueConfig);
    QString text = tr("Invoice of the pool %1 %2 (%3 charges, %4 GPU-hours); every column re-adds to it.")
                       .arg(chargebackMoney(run.result.invoice), QString::fromStdString(run.result.currency))
                       .arg(run.result.charges)
                       .arg(QString::number(run.result.poolGpuHours, 'f', 1));
    if (run.result.outsideCharges > 0)
        text += QLatin1Char(' ') + tr("%1 charges of other resources (%2) are not part of the pool.")
                                       .arg(run.result.outsideCharges)
                                       .arg(chargebackMoney(run.result.outsideCost));
    for (const std::string &warning : run.result.warnings)
        text += QLatin1Char(' ') + tr("Note: %1.").arg(QString::fromStdString(warning));
    m_status->setText(text.toHtmlEscaped());
    updateButtons();
}

bool TrackingChargebackPanel::exportAllocation(const QString &path)
{
    if (!m_run)
        return false;
    try {
        store::writeExportFile(path, store::allocationCsv(m_run->result, m_run->options, m_run->by),
                               store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        m_status->setText(kErrorStyle.arg(tr("Export failed: %1").arg(e.message()).toHtmlEscaped()));
        return false;
    }
    m_status->setText(tr("Exported the allocation to %1.").arg(path).toHtmlEscaped());
    return true;
}

bool TrackingChargebackPanel::saveKueueConfig(const QString &path)
{
    if (!m_run)
        return false;
    try {
        store::writeExportFile(path, m_run->kueueConfig.toUtf8(), store::ExistingFile::Replace);
    } catch (const store::StoreError &e) {
        m_status->setText(kErrorStyle.arg(tr("Not saved: %1").arg(e.message()).toHtmlEscaped()));
        return false;
    }
    m_status->setText(tr("Saved the Kueue configuration to %1.").arg(path).toHtmlEscaped());
    return true;
}

std::optional<DeckTable> TrackingChargebackPanel::currentTable() const
{
    if (!m_run)
        return std::nullopt;
    return chargebackTable(*m_run);
}

QList<ChartPanel *> TrackingChargebackPanel::chartPanels() const
{
    if (m_tabs->currentWidget() == m_trend)
        return {m_trend, m_compare};
    return {m_compare, m_trend};
}

} // namespace headroom::ui
