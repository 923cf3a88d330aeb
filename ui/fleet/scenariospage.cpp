#include "scenariospage.h"

#include "common/fields.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/dialogs.h"
#include "engine/errors.h"
#include "common/format.h"
#include "report/reportsnapshot.h"
#include "scenariocharts.h"
#include "common/entitycommand.h"
#include "scenariodiagramview.h"
#include "scenariohistorydialog.h"
#include "store/autoscaleyaml.h"
#include "store/scenarioinputs.h"
#include "store/scenariojson.h"
#include "store/storeerror.h"
#include "store/workspace.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDate>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace headroom::ui {

namespace {

using engine::Scenario;

// Merge ids of edits: one per form field; pool cells and assignments get their own ranges.
constexpr int kPoolFieldBase = 1000;
constexpr int kAssignField = 900;

enum PoolColumn { ColName, ColGpu, ColSizing, ColGpus, ColTier, ColPartitioning, ColMig, ColOwnedRate, ColCount };

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString money(const engine::Money &m)
{
    return qs(m.display());
}

QString percent(double ratio, int decimals = 1)
{
    return QLocale(QLocale::English).toString(ratio * 100.0, 'f', decimals) + QStringLiteral(" %");
}

// "1 GPU", "48 GPUs".
QString gpuCount(int64_t count)
{
    return formatGpus(count);
}

QString jsonOf(const Scenario &s)
{
    return QString::fromUtf8(store::scenarioJsonText(s));
}

// "7 × 1g.10gb, 4g.40gb" from a per-GPU profile list; "auto" when empty.
QString migLayoutText(const std::vector<std::string> &profiles)
{
    if (profiles.empty())
        return QStringLiteral("auto");
    QStringList parts;
    for (size_t i = 0; i < profiles.size();) {
        size_t j = i;
        while (j < profiles.size() && profiles[j] == profiles[i])
            ++j;
        parts << (j - i > 1 ? QStringLiteral("%1 × %2").arg(j - i).arg(qs(profiles[i])) : qs(profiles[i]));
        i = j;
    }
    return parts.join(QStringLiteral(", "));
}

// The inverse of migLayoutText; "7x1g.10gb" and "7*1g.10gb" are accepted too. nullopt when malformed.
std::optional<std::vector<std::string>> parseMigLayout(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
        return std::vector<std::string>{};
    static const QRegularExpression part(QStringLiteral("^(?:(\\d+)\\s*[×x*]\\s*)?([0-9]+g\\.[0-9]+gb(?:\\+me)?)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    std::vector<std::string> profiles;
    for (const QString &item : trimmed.split(QLatin1Char(','))) {
        const auto m = part.match(item.trimmed());
        if (!m.hasMatch())
            return std::nullopt;
        const int count = m.captured(1).isEmpty() ? 1 : m.captured(1).toInt();
        if (count < 1 || count > 7)
            return std::nullopt;
        for (int i = 0; i < count; ++i)
            profiles.push_back(m.captured(2).toLower().toStdString());
    }
    return profiles;
}

QString namesText(const std::vector<std::string> &names)
{
    QStringList list;
    for (const auto &n : names)
        list << qs(n);
    return list.join(QStringLiteral(", "));
}

std::vector<std::string> parseNames(const QString &text)
{
    std::vector<std::string> names;
    for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!item.trimmed().isEmpty())
            names.push_back(item.trimmed().toStdString());
    return names;
}

QString tierTip()
{
    return QObject::tr("How the pool's GPUs are paid for. Owned and reserved (1 or 3 years) form the static base "
                       "and are paid every hour; on-demand and spot form the elastic top and are paid per GPU-hour "
                       "used");
}

// A metric value of the comparison as text, in its unit.
QString metricText(const engine::ComparisonMetric &m, const engine::Decimal &v, bool delta)
{
    const bool negative = v.isNegative();
    const engine::Decimal magnitude = negative ? -v : v;
    QString sign = delta ? (negative ? QStringLiteral("−") : (v.isZero() ? QString() : QStringLiteral("+"))) : QString();
    if (!delta && negative)
        sign = QStringLiteral("−");
    if (m.unit == "money")
        return sign + money(engine::Money{magnitude, m.currency.empty() ? std::string("USD") : m.currency});
    if (m.unit == "ratio")
        return sign + QLocale(QLocale::English).toString(magnitude.toDouble() * 100.0, 'f', 1) +
               (delta ? QStringLiteral(" pts") : QStringLiteral(" %"));
    return sign + formatCount(magnitude.rounded(0).toIntegerTruncated());
}

} // namespace

ScenariosPage::ScenariosPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
    , m_undoStack(undoStack)
{
    setObjectName("scenariosPage");
    auto *editorScroll = new QScrollArea(this);
    editorScroll->setWidget(buildForm());
    editorScroll->setWidgetResizable(true);
    editorScroll->setFrameShape(QFrame::NoFrame);
    m_status = new QLabel(this);
    m_status->setObjectName("scenarioStatus");
    m_status->setWordWrap(true);
    auto *editor = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editor);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(editorScroll, 1);
    m_retryButton = new QPushButton(tr("Save my values again"), this);
    m_retryButton->setObjectName("scenarioRetry");
    m_retryButton->setToolTip(tr("Save the values you entered over the version now stored"));
    m_retryButton->hide();
    connect(m_retryButton, &QPushButton::clicked, this, &ScenariosPage::retrySave);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_retryButton);
    editorLayout->addLayout(statusRow);

    // The list above the editor on the left, the results on the right.
    auto *left = new QSplitter(Qt::Vertical, this);
    left->addWidget(buildList());
    left->addWidget(editor);
    left->setStretchFactor(1, 1);
    left->setSizes({170, 600});
    auto *split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(buildResults());
    split->setStretchFactor(1, 1);
    split->setSizes({540, 860});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(split);

    connect(&m_workspace, &store::Workspace::scenariosChanged, this, &ScenariosPage::refreshList);
    connect(&m_workspace, &store::Workspace::connectionRestored, this, &ScenariosPage::saveAfterReconnect);
    for (auto signal : {&store::Workspace::workloadsChanged, &store::Workspace::trainingJobsChanged,
                        &store::Workspace::gpusChanged, &store::Workspace::modelsChanged,
                        &store::Workspace::rateCardsChanged, &store::Workspace::servingAssumptionsChanged}) {
        connect(&m_workspace, signal, this, [this] {
            refreshChoices();
            loadForm();
            updateCompare();
        });
    }
    refreshChoices();
    refreshList();
}

// ---------------------------------------------------------------------------------------------
// List

QWidget *ScenariosPage::buildList()
{
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new QTableWidget(0, 5, box);
    m_list->setObjectName("scenarioList");
    m_list->setHorizontalHeaderLabels({tr("Scenario"), tr("Author"), tr("Version"), tr("Updated (UTC)"), tr("By")});
    m_list->verticalHeader()->hide();
    m_list->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_list->setMinimumWidth(300);
    m_list->setMinimumHeight(110);
    m_list->setToolTip(tr("Fleet scenarios of this workspace; the version counts every saved change"));
    connect(m_list, &QTableWidget::currentCellChanged, this, [this](int row, int, int previous) {
        if (!m_loading && row != previous)
            loadForm();
    });
    auto *add = new QPushButton(tr("&New"), box);
    add->setToolTip(tr("A new scenario with one reserved pool to start from"));
    auto *duplicate = new QPushButton(tr("D&uplicate"), box);
    duplicate->setToolTip(tr("A copy of the selected scenario, to try a variant"));
    auto *rename = new QPushButton(tr("Rena&me…"), box);
    auto *remove = new QPushButton(tr("&Delete"), box);
    remove->setToolTip(tr("Delete the selected scenario (asks first; Ctrl+Z brings it back)"));
    auto *history = new QPushButton(tr("Histor&y…"), box);
    history->setObjectName("scenarioHistory");
    history->setToolTip(tr("Every saved version of the selected scenario, who saved it and when; restore one"));
    connect(history, &QPushButton::clicked, this, &ScenariosPage::showHistory);
    connect(add, &QPushButton::clicked, this, &ScenariosPage::newScenario);
    connect(duplicate, &QPushButton::clicked, this, &ScenariosPage::duplicateScenario);
    connect(rename, &QPushButton::clicked, this, &ScenariosPage::renameWithDialog);
    connect(remove, &QPushButton::clicked, this, &ScenariosPage::deleteScenario);
    auto *del = new QShortcut(QKeySequence::Delete, m_list, nullptr, nullptr, Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, &ScenariosPage::deleteScenario);
    auto *f2 = new QShortcut(QKeySequence(Qt::Key_F2), m_list, nullptr, nullptr, Qt::WidgetShortcut);
    connect(f2, &QShortcut::activated, this, &ScenariosPage::renameWithDialog);
    layout->addWidget(m_list, 1);
    auto *row1 = new QHBoxLayout;
    row1->addWidget(add);
    row1->addWidget(duplicate);
    layout->addLayout(row1);
    auto *row2 = new QHBoxLayout;
    row2->addWidget(rename);
    row2->addWidget(remove);
    row2->addWidget(history);
    layout->addLayout(row2);
    return box;
}

void ScenariosPage::refreshList()
{
    const QString previous = currentName();
    const bool wasLoading = m_loading;
    m_loading = true;
    const auto summaries = m_workspace.scenarioSummaries();
    m_list->setRowCount(int(summaries.size()));
    for (int i = 0; i < int(summaries.size()); ++i) {
        const auto &s = summaries[size_t(i)];
        auto *name = new QTableWidgetItem(s.name);
        name->setToolTip(s.description);
        m_list->setItem(i, 0, name);
        m_list->setItem(i, 1, new QTableWidgetItem(s.author));
        auto *version = new QTableWidgetItem(QString::number(s.version));
        version->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_list->setItem(i, 2, version);
        const QDateTime updated = QDateTime::fromString(s.updatedAt, Qt::ISODate);
        auto *when = new QTableWidgetItem(updated.isValid() ? updated.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                                            : s.updatedAt);
        when->setToolTip(tr("Created %1, last changed %2").arg(s.createdAt, s.updatedAt));
        m_list->setItem(i, 3, when);
        auto *by = new QTableWidgetItem(s.updatedBy);
        by->setToolTip(tr("Who saved the last change (the database role on a team server, the OS user for a file)"));
        m_list->setItem(i, 4, by);
    }
    QString current = previous;
    if (!m_selectAfterRefresh.isEmpty()) {
        current = m_selectAfterRefresh;
        m_selectAfterRefresh.clear();
    }
    int row = -1;
    for (int i = 0; i < m_list->rowCount(); ++i)
        if (m_list->item(i, 0)->text() == current)
            row = i;
    if (row < 0 && m_list->rowCount() > 0)
        row = 0;
    m_list->setCurrentCell(row, 0);
    m_loading = wasLoading;

    // The compare choices follow the list, keeping what was ticked.
    const QStringList ticked = compared();
    m_compareList->blockSignals(true);
    m_compareList->clear();
    for (const auto &s : summaries) {
        auto *item = new QListWidgetItem(s.name, m_compareList);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(ticked.contains(s.name) ? Qt::Checked : Qt::Unchecked);
    }
    m_compareList->blockSignals(false);
    loadForm();
    updateCompare();
}

QString ScenariosPage::currentName() const
{
    const int row = m_list->currentRow();
    return row >= 0 && m_list->item(row, 0) ? m_list->item(row, 0)->text() : QString();
}

void ScenariosPage::selectScenario(const QString &name)
{
    for (int i = 0; i < m_list->rowCount(); ++i)
        if (m_list->item(i, 0)->text() == name)
            m_list->setCurrentCell(i, 0);
}

void ScenariosPage::newScenario()
{
    Scenario s;
    int n = m_list->rowCount() + 1;
    do {
        s.name = tr("scenario %1").arg(n++).toStdString();
    } while (m_workspace.scenarioSummary(qs(s.name)));
    s.author = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME")).toStdString();
    s.description = tr("A fleet to plan: add pools, assign workloads, compare.").toStdString();
    const auto cards = m_workspace.rateCards();
    if (!cards.empty()) {
        s.provider = cards.front().provider;
        s.region = cards.front().region;
    }
    engine::Pool pool;
    pool.name = "base";
    const auto gpus = m_workspace.gpus();
    pool.gpuId = m_workspace.gpu(QStringLiteral("h100-sxm")) ? "h100-sxm" : (gpus.empty() ? "" : gpus.front().id);
    pool.sizing = engine::PoolSizing::Fixed;
    pool.gpus = 8;
    pool.tier = engine::PoolTier::Reserved1y;
    s.pools.push_back(pool);
    if (push(std::nullopt, s, tr("New scenario %1").arg(qs(s.name))))
        setStatus(tr("Added %1: add pools and assign workloads to them.").arg(qs(s.name)));
}

void ScenariosPage::duplicateScenario()
{
    auto s = m_workspace.scenario(currentName());
    if (!s)
        return;
    const std::string base = s->name + " (copy)";
    s->name = base;
    for (int n = 2; m_workspace.scenarioSummary(qs(s->name)); ++n)
        s->name = base + ' ' + std::to_string(n);
    if (push(std::nullopt, s, tr("Duplicate %1").arg(currentName())))
        setStatus(tr("Duplicated as %1.").arg(qs(s->name)));
}

void ScenariosPage::renameWithDialog()
{
    const QString name = currentName();
    if (name.isEmpty())
        return;
    const QString next = Dialogs::textInput(this, tr("Rename scenario"), tr("New name:"), name);
    if (next.trimmed().isEmpty() || next.trimmed() == name)
        return;
    if (!renameScenario(next.trimmed()))
        Dialogs::warning(this, tr("Rename scenario"), m_lastMessage);
}

bool ScenariosPage::renameScenario(const QString &newName)
{
    return edit(tr("Rename"), -1, [&](Scenario &s) { s.name = newName.trimmed().toStdString(); });
}

void ScenariosPage::deleteScenario()
{
    const auto s = m_workspace.scenario(currentName());
    if (!s)
        return;
    const QString name = currentName();
    if (!Dialogs::question(this, tr("Delete scenario"),
                           tr("Delete the scenario \"%1\"? Edit ▸ Undo brings it back.").arg(name)))
        return;
    if (push(s, std::nullopt, tr("Delete scenario %1").arg(name)))
        setStatus(tr("Deleted %1 (Ctrl+Z brings it back).").arg(name));
}

// ---------------------------------------------------------------------------------------------
// Editor

void ScenariosPage::addLine(QFormLayout *form, const QString &label, const char *name, const QString &tip,
                            std::function<QString(const Scenario &)> get,
                            std::function<void(Scenario &, const QString &)> set)
{
    auto *line = new QLineEdit(m_form);
    line->setObjectName(QLatin1String(name));
    line->setToolTip(tip);
    form->addRow(label + QLatin1Char(':'), line);
    const int field = int(m_bindings.size());
    m_bindings.push_back({[line, get](const Scenario &s) { line->setText(get(s)); }, label});
    // edit() saves nothing when the text is what is stored already.
    connect(line, &QLineEdit::editingFinished, this, [this, line, set, field, label] {
        const QString text = line->text();
        edit(tr("Edit %1").arg(label.toLower()), field, [&](Scenario &s) { set(s, text); });
    });
}

QWidget *ScenariosPage::buildForm()
{
    m_form = new QWidget;
    auto *column = new QVBoxLayout(m_form);
    auto group = [this](const QString &title) {
        auto *box = new QGroupBox(title, m_form);
        auto *form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        return std::pair{box, form};
    };

    // Identity and term
    auto [identityBox, identity] = group(tr("Scenario"));
    addLine(identity, tr("Name"), "scenarioName", tr("Unique name of the scenario in this workspace"),
            [](const Scenario &s) { return qs(s.name); },
            [](Scenario &s, const QString &t) { s.name = t.trimmed().toStdString(); });
    addLine(identity, tr("Description"), "scenarioDescription", tr("What the scenario tries, in one or two sentences"),
            [](const Scenario &s) { return qs(s.description); },
            [](Scenario &s, const QString &t) { s.description = t.trimmed().toStdString(); });
    addLine(identity, tr("Author"), "scenarioAuthor", tr("Who prepared the scenario"),
            [](const Scenario &s) { return qs(s.author); },
            [](Scenario &s, const QString &t) { s.author = t.trimmed().toStdString(); });
    auto *horizon = new QSpinBox(m_form);
    horizon->setObjectName("scenarioHorizon");
    horizon->setRange(1, 120);
    setCountSuffix(horizon, tr(" month(s)"));
    horizon->setKeyboardTracking(false);
    horizon->setToolTip(tr("Planning horizon, 1–120 calendar months from the start date: the term of the \"over "
                           "the term\" cost, counted in real hours (8,760 h a common year, 8,784 h a leap year)"));
    identity->addRow(tr("Horizon:"), horizon);
    {
        const int field = int(m_bindings.size());
        m_bindings.push_back({[horizon](const Scenario &s) { horizon->setValue(s.horizonMonths); }, tr("Horizon")});
        connect(horizon, &QSpinBox::valueChanged, this, [this, field](int v) {
            edit(tr("Edit horizon"), field, [v](Scenario &s) { s.horizonMonths = v; });
        });
    }

    addLine(identity, tr("Start date"), "scenarioStartDate",
            tr("First day of the term, yyyy-mm-dd (00:00 UTC). Empty: the first day of the month after the rate "
               "card's \"as of\" date, or the first of next month"),
            [](const Scenario &s) { return qs(s.startDate); },
            [](Scenario &s, const QString &t) { s.startDate = t.trimmed().toStdString(); });

    // Prices
    auto [pricesBox, prices] = group(tr("Rate card"));
    m_rateCard = new QComboBox(m_form);
    m_rateCard->setObjectName("scenarioRateCard");
    m_rateCard->setToolTip(tr("Provider and region whose rate card prices every pool's GPU (Rate cards page)"));
    prices->addRow(tr("Provider:"), m_rateCard);
    {
        const int field = int(m_bindings.size());
        m_bindings.push_back({[this](const Scenario &s) {
                                  const QString key = qs(s.provider) + QLatin1Char('\n') + qs(s.region);
                                  int index = m_rateCard->findData(key);
                                  if (index < 0) {
                                      m_rateCard->addItem(tr("%1 — %2 (no rate card)").arg(qs(s.provider), qs(s.region)), key);
                                      index = m_rateCard->count() - 1;
                                  }
                                  m_rateCard->setCurrentIndex(index);
                              },
                              tr("Rate card")});
        connect(m_rateCard, &QComboBox::currentIndexChanged, this, [this, field] {
            const QStringList parts = m_rateCard->currentData().toString().split(QLatin1Char('\n'));
            if (parts.size() != 2)
                return;
            edit(tr("Edit rate card"), field, [&](Scenario &s) {
                s.provider = parts[0].toStdString();
                s.region = parts[1].toStdString();
            });
        });
    }
    auto *dateValidator = new QRegularExpressionValidator(QRegularExpression(QStringLiteral("(\\d{4}-\\d{2}-\\d{2})?")), m_form);
    addLine(prices, tr("Rates as of"), "scenarioAsOf",
            tr("ISO date (yyyy-mm-dd) whose prices apply: the card in force then. Empty: the latest card"),
            [](const Scenario &s) { return qs(s.asOfDate); },
            [](Scenario &s, const QString &t) { s.asOfDate = t.trimmed().toStdString(); });
    addLine(prices, tr("Capacity needed by"), "scenarioNeedDate",
            tr("ISO date the reserved capacity must be running; warned when the card's reservation lead time "
               "from the as-of date ends later. Empty: no check"),
            [](const Scenario &s) { return qs(s.needDate); },
            [](Scenario &s, const QString &t) { s.needDate = t.trimmed().toStdString(); });
    for (const char *name : {"scenarioAsOf", "scenarioNeedDate"})
        if (auto *e = m_form->findChild<QLineEdit *>(QLatin1String(name))) {
            e->setValidator(dateValidator);
            e->setPlaceholderText(QStringLiteral("yyyy-mm-dd"));
        }
    auto *spot = new QDoubleSpinBox(m_form);
    spot->setObjectName("scenarioSpotOverhead");
    spot->setRange(0, 100);
    spot->setDecimals(1);
    spot->setSuffix(tr(" %"));
    spot->setKeyboardTracking(false);
    spot->setToolTip(tr("Extra spot GPU-hours lost to interruptions (restarts, reloading weights), 0–100 % of the "
                        "hours used"));
    prices->addRow(tr("Spot overhead:"), spot);
    {
        const int field = int(m_bindings.size());
        m_bindings.push_back({[spot](const Scenario &s) { spot->setValue(s.spotOverhead.toDouble() * 100.0); },
                              tr("Spot overhead")});
        connect(spot, &QDoubleSpinBox::valueChanged, this, [this, field](double v) {
            edit(tr("Edit spot overhead"), field, [v](Scenario &s) {
                s.spotOverhead = engine::Decimal::parse(QString::number(v / 100.0, 'f', 4).toStdString())
                                     .value_or(engine::Decimal());
            });
        });
    }

    // Pools
    auto *poolsBox = new QGroupBox(tr("GPU pools"), m_form);
    auto *poolsLayout = new QVBoxLayout(poolsBox);
    m_pools = new QTableWidget(0, ColCount, poolsBox);
    m_pools->setObjectName("scenarioPools");
    m_pools->setHorizontalHeaderLabels({tr("Pool"), tr("GPU"), tr("Sizing"), tr("GPUs"), tr("Tier"), tr("Sharing"),
                                        tr("MIG layout per GPU"), tr("Owned rate (per GPU-h)")});
    m_pools->horizontalHeaderItem(ColGpus)->setToolTip(
        tr("Static pools: GPUs provisioned. Elastic pools: the most GPUs they may scale to"));
    m_pools->horizontalHeaderItem(ColTier)->setToolTip(tierTip());
    m_pools->horizontalHeaderItem(ColMig)->setToolTip(
        tr("MIG pools: the profiles on every GPU, e.g. \"7 × 1g.10gb\" or \"4g.40gb, 2g.20gb, 1g.10gb\"; \"auto\" "
           "packs the assigned workloads"));
    m_pools->horizontalHeaderItem(ColOwnedRate)->setToolTip(
        tr("Owned pools: amortised cost of an owned GPU per GPU-hour in the rate card's currency. Empty: the "
           "3-year reserved rate stands in"));
    m_pools->verticalHeader()->hide();
    m_pools->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_pools->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_pools->setMinimumHeight(150);
    auto *addPoolButton = new QPushButton(tr("Add &pool"), poolsBox);
    addPoolButton->setToolTip(tr("Add a pool: an elastic on-demand pool when a static one exists, else a static one"));
    auto *removePoolButton = new QPushButton(tr("Remove pool"), poolsBox);
    removePoolButton->setToolTip(tr("Remove the pool of the selected row"));
    connect(addPoolButton, &QPushButton::clicked, this, &ScenariosPage::addPool);
    connect(removePoolButton, &QPushButton::clicked, this, &ScenariosPage::removePool);
    poolsLayout->addWidget(m_pools);
    auto *poolButtons = new QHBoxLayout;
    poolButtons->addWidget(addPoolButton);
    poolButtons->addWidget(removePoolButton);
    poolButtons->addStretch(1);
    poolsLayout->addLayout(poolButtons);
    m_bindings.push_back({[this](const Scenario &s) { loadPools(s); }, tr("Pools")});

    // Assignments
    auto *assignBox = new QGroupBox(tr("Workloads and training jobs per pool"), m_form);
    auto *assignLayout = new QVBoxLayout(assignBox);
    m_assign = new QTableWidget(assignBox);
    m_assign->setObjectName("scenarioAssignments");
    m_assign->verticalHeader()->hide();
    m_assign->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_assign->setMinimumHeight(160);
    m_assign->setToolTip(tr("Tick the pools that serve each workload or run each job. A workload is carried by the "
                            "first static pool ticked and its overflow by the first elastic pool ticked"));
    assignLayout->addWidget(m_assign);
    m_bindings.push_back({[this](const Scenario &s) { loadAssignments(s); }, tr("Assignments")});
    connect(m_assign, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (m_loading || item->column() == 0)
            return;
        const QString name = m_assign->item(item->row(), 0)->data(Qt::UserRole).toString();
        const bool training = m_assign->item(item->row(), 0)->data(Qt::UserRole + 1).toBool();
        const int pool = item->column() - 1;
        const bool on = item->checkState() == Qt::Checked;
        edit(on ? tr("Assign %1").arg(name) : tr("Unassign %1").arg(name), kAssignField, [&](Scenario &s) {
            if (pool >= int(s.pools.size()))
                return;
            auto &list = training ? s.pools[size_t(pool)].trainingJobs : s.pools[size_t(pool)].workloads;
            const auto found = std::find(list.begin(), list.end(), name.toStdString());
            if (on && found == list.end())
                list.push_back(name.toStdString());
            if (!on && found != list.end())
                list.erase(found);
        });
    });

    // Autoscaling
    auto [scaleBox, scale] = group(tr("Autoscaling of the elastic top (KEDA on queue depth)"));
    auto *delay = new QDoubleSpinBox(m_form);
    delay->setObjectName("scenarioQueueDelay");
    delay->setRange(0, 600000);
    delay->setDecimals(0);
    delay->setSuffix(tr(" ms"));
    delay->setSpecialValueText(tr("from the TTFT SLO"));
    delay->setKeyboardTracking(false);
    delay->setToolTip(tr("Queueing delay the latency SLO allows, ms. At 0 it follows from each workload's TTFT P95 "
                         "SLO minus the prefill time of a P95 prompt. Queue target = max throughput × this delay"));
    scale->addRow(tr("Allowed queueing delay:"), delay);
    auto *tolerance = new QDoubleSpinBox(m_form);
    tolerance->setObjectName("scenarioHpaTolerance");
    tolerance->setRange(0, 0.99);
    tolerance->setDecimals(2);
    tolerance->setSingleStep(0.01);
    tolerance->setKeyboardTracking(false);
    tolerance->setToolTip(tr("HPA tolerance band, 0–0.99 (Kubernetes default 0.1): no scaling while the metric is "
                             "within ± this share of the target; dampens oscillation"));
    scale->addRow(tr("HPA tolerance:"), tolerance);
    auto *cooldown = new QSpinBox(m_form);
    cooldown->setObjectName("scenarioCooldown");
    cooldown->setRange(0, 86400);
    cooldown->setSuffix(tr(" s"));
    cooldown->setKeyboardTracking(false);
    cooldown->setToolTip(tr("Seconds KEDA waits after the last trigger before scaling in, 0–86,400 s; inference "
                            "replicas load weights slowly, so ~600 s"));
    scale->addRow(tr("Cooldown:"), cooldown);
    auto *polling = new QSpinBox(m_form);
    polling->setObjectName("scenarioPolling");
    polling->setRange(1, 3600);
    polling->setSuffix(tr(" s"));
    polling->setKeyboardTracking(false);
    polling->setToolTip(tr("How often KEDA reads the queue metric, 1–3,600 s"));
    scale->addRow(tr("Polling interval:"), polling);
    auto *minReplicas = new QComboBox(m_form);
    minReplicas->setObjectName("scenarioMinReplicas");
    minReplicas->addItem(tr("0 — drain to zero off-peak"), true);
    minReplicas->addItem(tr("1 — keep one replica warm"), false);
    minReplicas->setToolTip(tr("Minimum replicas of the elastic tier: 0 lets it drain off-peak, which is where "
                               "elasticity saves money"));
    scale->addRow(tr("Min replicas:"), minReplicas);
    {
        int field = int(m_bindings.size());
        m_bindings.push_back({[=](const Scenario &s) {
                                  delay->setValue(s.autoscale.maxQueueDelayMs.value_or(0));
                                  tolerance->setValue(s.autoscale.hpaTolerance);
                                  cooldown->setValue(s.autoscale.cooldownSeconds);
                                  polling->setValue(s.autoscale.pollingIntervalSeconds);
                                  minReplicas->setCurrentIndex(s.autoscale.drainToZero ? 0 : 1);
                              },
                              tr("Autoscaling")});
        connect(delay, &QDoubleSpinBox::valueChanged, this, [this, field](double v) {
            edit(tr("Edit queueing delay"), field, [v](Scenario &s) {
                s.autoscale.maxQueueDelayMs = v > 0 ? std::optional<double>(v) : std::nullopt;
            });
        });
        connect(tolerance, &QDoubleSpinBox::valueChanged, this, [this, field](double v) {
            edit(tr("Edit HPA tolerance"), field + 1000000, [v](Scenario &s) { s.autoscale.hpaTolerance = v; });
        });
        connect(cooldown, &QSpinBox::valueChanged, this, [this, field](int v) {
            edit(tr("Edit cooldown"), field + 2000000, [v](Scenario &s) { s.autoscale.cooldownSeconds = v; });
        });
        connect(polling, &QSpinBox::valueChanged, this, [this, field](int v) {
            edit(tr("Edit polling interval"), field + 3000000,
                 [v](Scenario &s) { s.autoscale.pollingIntervalSeconds = v; });
        });
        connect(minReplicas, &QComboBox::currentIndexChanged, this, [this, minReplicas] {
            const bool drain = minReplicas->currentData().toBool();
            edit(tr("Edit min replicas"), -1, [drain](Scenario &s) { s.autoscale.drainToZero = drain; });
        });
    }
    addLine(scale, tr("Queue metric"), "scenarioMetric",
            tr("Prometheus metric of the serving engine's waiting requests (vLLM: vllm:num_requests_waiting)"),
            [](const Scenario &s) { return qs(s.autoscale.metric); },
            [](Scenario &s, const QString &t) { s.autoscale.metric = t.trimmed().toStdString(); });
    addLine(scale, tr("Prometheus"), "scenarioPrometheus", tr("Address KEDA queries, e.g. http://prometheus:9090"),
            [](const Scenario &s) { return qs(s.autoscale.prometheusAddress); },
            [](Scenario &s, const QString &t) { s.autoscale.prometheusAddress = t.trimmed().toStdString(); });
    addLine(scale, tr("Namespace"), "scenarioNamespace", tr("Kubernetes namespace of the generated objects"),
            [](const Scenario &s) { return qs(s.autoscale.kubernetesNamespace); },
            [](Scenario &s, const QString &t) { s.autoscale.kubernetesNamespace = t.trimmed().toStdString(); });
    addLine(scale, tr("Fallback GPUs"), "scenarioFallbackGpus",
            tr("Catalog GPU ids the DRA claim may fall back to, in order, after the pool's GPU (e.g. a100-sxm-80gb)"),
            [](const Scenario &s) { return namesText(s.autoscale.fallbackGpuIds); },
            [](Scenario &s, const QString &t) { s.autoscale.fallbackGpuIds = parseNames(t); });

    // Policy
    auto [policyBox, policy] = group(tr("Reserve-and-pack policy"));
    auto *reserve = new QComboBox(m_form);
    reserve->setObjectName("scenarioReservePolicy");
    reserve->addItem(tr("Critical fractile (cost optimum)"), int(engine::ReservePolicy::CriticalFractile));
    reserve->addItem(tr("P50 of hourly need"), int(engine::ReservePolicy::P50));
    reserve->addItem(tr("P75 of hourly need"), int(engine::ReservePolicy::P75));
    reserve->addItem(tr("Fixed counts only"), int(engine::ReservePolicy::Fixed));
    reserve->setToolTip(tr("How a reserved pool sized \"for me\" picks its GPUs: where P(hourly need > R) = reserved "
                           "÷ elastic rate (the optimum), or the P50 / P75 rule of thumb"));
    policy->addRow(tr("Reserve at:"), reserve);
    auto *pack = new QCheckBox(tr("Pack tenants onto shared GPUs"), m_form);
    pack->setObjectName("scenarioPackTenants");
    pack->setToolTip(tr("MIG, time-slice and MPS pools pack their workloads as tenants; off: each workload gets "
                        "whole GPUs"));
    policy->addRow(QString(), pack);
    {
        const int field = int(m_bindings.size());
        m_bindings.push_back({[=](const Scenario &s) {
                                  reserve->setCurrentIndex(reserve->findData(int(s.policy.reserveAt)));
                                  pack->setChecked(s.policy.packMigTenants);
                              },
                              tr("Policy")});
        connect(reserve, &QComboBox::currentIndexChanged, this, [this, reserve, field] {
            const auto policy = engine::ReservePolicy(reserve->currentData().toInt());
            edit(tr("Edit reserve policy"), field, [policy](Scenario &s) { s.policy.reserveAt = policy; });
        });
        connect(pack, &QCheckBox::toggled, this, [this](bool on) {
            edit(tr("Edit packing"), -1, [on](Scenario &s) { s.policy.packMigTenants = on; });
        });
    }

    column->addWidget(identityBox);
    column->addWidget(pricesBox);
    column->addWidget(poolsBox);
    column->addWidget(assignBox);
    column->addWidget(scaleBox);
    column->addWidget(policyBox);
    column->addStretch(1);
    return m_form;
}

void ScenariosPage::refreshChoices()
{
    const bool wasLoading = m_loading;
    m_loading = true;
    const QVariant current = m_rateCard->currentData();
    m_rateCard->clear();
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto &card : m_workspace.rateCards()) {
        if (!seen.insert({card.provider, card.region}).second)
            continue;
        m_rateCard->addItem(tr("%1 — %2").arg(qs(card.provider), qs(card.region)),
                            qs(card.provider) + QLatin1Char('\n') + qs(card.region));
    }
    m_rateCard->setCurrentIndex(m_rateCard->findData(current));
    m_loading = wasLoading;
}

void ScenariosPage::loadForm()
{
    if (m_loading)
        return;
    const auto scenario = m_workspace.scenario(currentName());
    const auto summary = m_workspace.scenarioSummary(currentName());
    m_loadedVersion = summary ? summary->version : 0;
    m_shown = scenario;
    if (m_retry && (!scenario || m_retry->name != scenario->name)) {
        m_retry.reset();
        m_retryButton->hide();
    }
    m_form->setEnabled(scenario.has_value());
    if (scenario) {
        m_loading = true;
        // Values a conflict refused stay on top of the current version until saved or dropped.
        for (const Binding &b : m_bindings)
            b.load(m_retry ? *m_retry : *scenario);
        m_loading = false;
    } else if (m_list->rowCount() == 0) {
        setStatus(tr("No scenarios yet: New creates one (or open the demo workspace from the File menu)."));
    }
    evaluate();
}

void ScenariosPage::loadPools(const Scenario &scenario)
{
    const auto gpus = m_workspace.gpus();
    const int rows = int(scenario.pools.size());
    const bool rebuild = m_pools->rowCount() != rows;
    if (rebuild) {
        // The old editors are deleted later by the view: unname them so that nothing finds
        // them meanwhile, then lay out the rows afresh.
        for (int r = 0; r < m_pools->rowCount(); ++r)
            for (int c = 0; c < ColCount; ++c)
                if (QWidget *w = m_pools->cellWidget(r, c)) {
                    w->setObjectName(QString());
                    w->blockSignals(true);
                }
        m_pools->setRowCount(0);
        m_pools->setRowCount(rows);
    }
    for (int r = 0; r < rows; ++r) {
        const engine::Pool &pool = scenario.pools[size_t(r)];
        auto field = [r](int column) { return kPoolFieldBase + r * ColCount + column; };
        auto editPool = [this, r](const QString &label, int mergeField, std::function<void(engine::Pool &)> change) {
            edit(label, mergeField, [&](Scenario &s) {
                if (r < int(s.pools.size()))
                    change(s.pools[size_t(r)]);
            });
        };
        if (rebuild || !m_pools->cellWidget(r, ColName)) {
            auto *name = new QLineEdit(m_pools);
            name->setObjectName(QStringLiteral("poolName%1").arg(r));
            name->setToolTip(tr("Pool name, unique in the scenario"));
            name->setFrame(false);
            connect(name, &QLineEdit::editingFinished, this, [=] {
                const std::string text = name->text().trimmed().toStdString();
                editPool(tr("Rename pool"), -1, [text](engine::Pool &p) { p.name = text; });
            });
            m_pools->setCellWidget(r, ColName, name);

            auto *gpu = new QComboBox(m_pools);
            gpu->setObjectName(QStringLiteral("poolGpu%1").arg(r));
            gpu->setToolTip(tr("GPU type of the pool, from the catalog"));
            for (const auto &g : gpus)
                gpu->addItem(qs(g.name), qs(g.id));
            connect(gpu, &QComboBox::currentIndexChanged, this, [=] {
                const std::string id = gpu->currentData().toString().toStdString();
                editPool(tr("Edit pool GPU"), field(ColGpu), [id](engine::Pool &p) { p.gpuId = id; });
            });
            m_pools->setCellWidget(r, ColGpu, gpu);

            auto *sizing = new QComboBox(m_pools);
            sizing->setObjectName(QStringLiteral("poolSizing%1").arg(r));
            sizing->addItem(tr("Fixed count"), int(engine::PoolSizing::Fixed));
            sizing->addItem(tr("Size it for me"), int(engine::PoolSizing::Auto));
            sizing->setToolTip(tr("A fixed GPU count, or sized from the workloads: reserved pools by the reserve "
                                  "policy, owned pools and elastic pools for their peak, shared pools by packing"));
            connect(sizing, &QComboBox::currentIndexChanged, this, [=] {
                const auto value = engine::PoolSizing(sizing->currentData().toInt());
                editPool(tr("Edit pool sizing"), -1, [value](engine::Pool &p) { p.sizing = value; });
            });
            m_pools->setCellWidget(r, ColSizing, sizing);

            auto *count = new QSpinBox(m_pools);
            count->setObjectName(QStringLiteral("poolGpus%1").arg(r));
            count->setRange(0, 100000);
            setCountSuffix(count, tr(" GPU(s)"));
            count->setKeyboardTracking(false);
            count->setGroupSeparatorShown(true);
            count->setToolTip(tr("Static pools: GPUs provisioned (≥ 1). Elastic pools: the most GPUs they scale to "
                                 "(0 = no cap)"));
            connect(count, &QSpinBox::valueChanged, this, [=](int v) {
                editPool(tr("Edit pool GPUs"), field(ColGpus), [v](engine::Pool &p) { p.gpus = v; });
            });
            m_pools->setCellWidget(r, ColGpus, count);

            auto *tier = new QComboBox(m_pools);
            tier->setObjectName(QStringLiteral("poolTier%1").arg(r));
            for (auto t : engine::allPoolTiers())
                tier->addItem(tierName(t), int(t));
            tier->setToolTip(tierTip());
            connect(tier, &QComboBox::currentIndexChanged, this, [=] {
                const auto value = engine::PoolTier(tier->currentData().toInt());
                editPool(tr("Edit pool tier"), -1, [value](engine::Pool &p) {
                    p.tier = value;
                    if (value != engine::PoolTier::Owned)
                        p.ownedRatePerGpuHour.reset(); // only owned GPUs have an owned rate
                    if (engine::roleOf(value) == engine::PoolRole::ElasticTop)
                        p.partitioning = engine::Partitioning::Exclusive; // the elastic top is exclusive
                });
            });
            m_pools->setCellWidget(r, ColTier, tier);

            auto *sharing = new QComboBox(m_pools);
            sharing->setObjectName(QStringLiteral("poolSharing%1").arg(r));
            for (auto p : engine::allPartitionings())
                sharing->addItem(partitioningName(p), int(p));
            sharing->setToolTip(tr("Exclusive GPUs, MIG slices (memory and fault isolation), time-slicing or MPS "
                                   "(density without memory isolation). Elastic pools are exclusive"));
            connect(sharing, &QComboBox::currentIndexChanged, this, [=] {
                const auto value = engine::Partitioning(sharing->currentData().toInt());
                editPool(tr("Edit pool sharing"), -1, [value](engine::Pool &p) {
                    p.partitioning = value;
                    if (value != engine::Partitioning::Mig)
                        p.migProfiles.clear();
                });
            });
            m_pools->setCellWidget(r, ColPartitioning, sharing);

            auto *mig = new QLineEdit(m_pools);
            mig->setObjectName(QStringLiteral("poolMig%1").arg(r));
            mig->setFrame(false);
            mig->setToolTip(m_pools->horizontalHeaderItem(ColMig)->toolTip());
            connect(mig, &QLineEdit::editingFinished, this, [=, this] {
                const auto profiles = parseMigLayout(mig->text());
                if (!profiles) {
                    setStatus(tr("Not saved: MIG layout \"%1\" — write profiles such as \"7 × 1g.10gb\" or "
                                 "\"4g.40gb, 3g.40gb\", or auto.")
                                  .arg(mig->text()),
                              true);
                    return;
                }
                editPool(tr("Edit MIG layout"), -1, [&](engine::Pool &p) { p.migProfiles = *profiles; });
            });
            m_pools->setCellWidget(r, ColMig, mig);

            auto *owned = new QLineEdit(m_pools);
            owned->setObjectName(QStringLiteral("poolOwnedRate%1").arg(r));
            owned->setFrame(false);
            owned->setPlaceholderText(tr("3-year rate"));
            owned->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("\\d{0,7}(\\.\\d{0,9})?")), owned));
            owned->setToolTip(m_pools->horizontalHeaderItem(ColOwnedRate)->toolTip());
            connect(owned, &QLineEdit::editingFinished, this, [=] {
                const QString text = owned->text().trimmed();
                const auto rate = engine::Decimal::parse(text.toStdString());
                editPool(tr("Edit owned rate"), -1, [&](engine::Pool &p) {
                    p.ownedRatePerGpuHour = text.isEmpty() || !rate ? std::nullopt : rate;
                });
            });
            m_pools->setCellWidget(r, ColOwnedRate, owned);
        }
        auto *name = static_cast<QLineEdit *>(m_pools->cellWidget(r, ColName));
        auto *gpu = static_cast<QComboBox *>(m_pools->cellWidget(r, ColGpu));
        auto *sizing = static_cast<QComboBox *>(m_pools->cellWidget(r, ColSizing));
        auto *count = static_cast<QSpinBox *>(m_pools->cellWidget(r, ColGpus));
        auto *tier = static_cast<QComboBox *>(m_pools->cellWidget(r, ColTier));
        auto *sharing = static_cast<QComboBox *>(m_pools->cellWidget(r, ColPartitioning));
        auto *mig = static_cast<QLineEdit *>(m_pools->cellWidget(r, ColMig));
        auto *owned = static_cast<QLineEdit *>(m_pools->cellWidget(r, ColOwnedRate));
        name->setText(qs(pool.name));
        if (gpu->findData(qs(pool.gpuId)) < 0) {
            gpu->addItem(tr("%1 (not in the catalog)").arg(qs(pool.gpuId)), qs(pool.gpuId));
        }
        gpu->setCurrentIndex(gpu->findData(qs(pool.gpuId)));
        sizing->setCurrentIndex(sizing->findData(int(pool.sizing)));
        count->setValue(int(std::min<int64_t>(pool.gpus, 100000)));
        count->setEnabled(pool.sizing == engine::PoolSizing::Fixed);
        tier->setCurrentIndex(tier->findData(int(pool.tier)));
        sharing->setCurrentIndex(sharing->findData(int(pool.partitioning)));
        sharing->setEnabled(pool.role() == engine::PoolRole::StaticBase);
        mig->setText(pool.partitioning == engine::Partitioning::Mig ? migLayoutText(pool.migProfiles) : QString());
        mig->setEnabled(pool.partitioning == engine::Partitioning::Mig);
        owned->setText(pool.ownedRatePerGpuHour ? qs(pool.ownedRatePerGpuHour->toString()) : QString());
        owned->setEnabled(pool.tier == engine::PoolTier::Owned);
    }
    m_pools->resizeColumnsToContents();
}

void ScenariosPage::loadAssignments(const Scenario &scenario)
{
    struct Row {
        QString name;
        bool training = false;
        bool missing = false;
    };
    std::vector<Row> rows;
    std::set<std::string> known;
    for (const auto &w : m_workspace.workloads()) {
        rows.push_back({qs(w.name), false, false});
        known.insert("w:" + w.name);
    }
    for (const auto &j : m_workspace.trainingJobs()) {
        rows.push_back({qs(j.name), true, false});
        known.insert("j:" + j.name);
    }
    // Names the scenario keeps although they are gone from the workspace: shown, flagged.
    for (const auto &p : scenario.pools) {
        for (const auto &w : p.workloads)
            if (known.insert("w:" + w).second)
                rows.push_back({qs(w), false, true});
        for (const auto &j : p.trainingJobs)
            if (known.insert("j:" + j).second)
                rows.push_back({qs(j), true, true});
    }
    // Workloads the scenario uses first, then the rest, so the relevant rows are at the top.
    auto used = [&](const Row &row) {
        for (const auto &p : scenario.pools) {
            const auto &list = row.training ? p.trainingJobs : p.workloads;
            if (std::find(list.begin(), list.end(), row.name.toStdString()) != list.end())
                return true;
        }
        return false;
    };
    std::stable_partition(rows.begin(), rows.end(), used);

    QStringList headers{tr("Workload / training job")};
    for (const auto &p : scenario.pools)
        headers << tr("%1 (%2)").arg(qs(p.name), p.role() == engine::PoolRole::StaticBase ? tr("static")
                                                                                            : tr("elastic"));
    auto isChecked = [&](const Row &row, int pool) {
        const auto &list = row.training ? scenario.pools[size_t(pool)].trainingJobs : scenario.pools[size_t(pool)].workloads;
        return std::find(list.begin(), list.end(), row.name.toStdString()) != list.end();
    };
    // Same rows and pools as shown: only the ticks change (a tick is being edited right now,
    // so the items stay where they are).
    bool sameShape = m_assign->rowCount() == int(rows.size()) && m_assign->columnCount() == int(headers.size());
    for (int c = 0; sameShape && c < int(headers.size()); ++c)
        sameShape = m_assign->horizontalHeaderItem(c) && m_assign->horizontalHeaderItem(c)->text() == headers[c];
    for (int r = 0; sameShape && r < int(rows.size()); ++r) {
        const QTableWidgetItem *label = m_assign->item(r, 0);
        sameShape = label && label->data(Qt::UserRole).toString() == rows[size_t(r)].name &&
                    label->data(Qt::UserRole + 1).toBool() == rows[size_t(r)].training &&
                    label->text().endsWith(tr("(missing)")) == rows[size_t(r)].missing;
    }
    if (sameShape) {
        for (int r = 0; r < int(rows.size()); ++r)
            for (int c = 0; c < int(scenario.pools.size()); ++c)
                m_assign->item(r, c + 1)->setCheckState(isChecked(rows[size_t(r)], c) ? Qt::Checked : Qt::Unchecked);
        return;
    }
    m_assign->clear();
    m_assign->setColumnCount(int(headers.size()));
    m_assign->setHorizontalHeaderLabels(headers);
    m_assign->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const Row &row = rows[size_t(r)];
        auto *label = new QTableWidgetItem(row.missing ? tr("%1 (missing)").arg(row.name)
                                                       : row.training ? tr("%1 (training)").arg(row.name) : row.name);
        label->setFlags(Qt::ItemIsEnabled);
        label->setData(Qt::UserRole, row.name);
        label->setData(Qt::UserRole + 1, row.training);
        label->setToolTip(row.missing ? tr("Named by the scenario but no longer in the workspace: kept, and warned "
                                           "about in the evaluation")
                                      : row.training ? tr("Training job") : tr("Workload profile"));
        if (row.missing)
            label->setForeground(QColor(0xc0, 0x39, 0x2b));
        m_assign->setItem(r, 0, label);
        for (int c = 0; c < int(scenario.pools.size()); ++c) {
            auto *check = new QTableWidgetItem;
            check->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            check->setCheckState(isChecked(row, c) ? Qt::Checked : Qt::Unchecked);
            m_assign->setItem(r, c + 1, check);
        }
    }
    m_assign->resizeColumnsToContents();
}

bool ScenariosPage::edit(const QString &label, int mergeField, const std::function<void(Scenario &)> &change)
{
    if (m_loading)
        return false;
    std::optional<Scenario> before;
    QString lost;
    try {
        before = m_workspace.scenario(currentName());
    } catch (const store::ConnectionLostError &e) {
        // Offline: the edit applies to what the form shows and waits for the connection.
        before = m_shown;
        lost = e.message();
    }
    if (!before)
        return false;
    Scenario after = !lost.isEmpty() && m_retry ? *m_retry : *before;
    change(after);
    if (jsonOf(after) == jsonOf(*before))
        return true;
    if (!lost.isEmpty()) {
        keepUntilReconnected(lost, m_offlineBase ? m_offlineBase : before,
                             after.name == before->name ? std::optional(after) : std::nullopt);
        return false;
    }
    if (after.name != before->name && m_workspace.scenarioSummary(qs(after.name))) {
        setStatus(tr("Not saved: a scenario named \"%1\" exists already.").arg(qs(after.name)), true);
        return false;
    }
    if (!push(before, after, tr("%1 of %2").arg(label, currentName()), mergeField))
        return false;
    setStatus(tr("Saved."));
    return true;
}

bool ScenariosPage::push(const std::optional<Scenario> &before, const std::optional<Scenario> &after,
                         const QString &text, int mergeField)
{
    if (after) {
        const auto problems = engine::validate(*after);
        if (!problems.empty()) {
            setStatus(tr("Not saved: %1").arg(fieldProblemsText(problems)), true);
            // Show the stored values again rather than the refused one.
            const bool wasLoading = m_loading;
            m_loading = false;
            if (const auto stored = m_workspace.scenario(currentName())) {
                m_loading = true;
                for (const Binding &b : m_bindings)
                    b.load(*stored);
            }
            m_loading = wasLoading;
            return false;
        }
        m_selectAfterRefresh = qs(after->name);
    }
    const QPointer<ScenariosPage> page(this);
    auto refused = [page](const QString &message) {
        if (page)
            page->showConflict(message, std::nullopt);
    };
    // A new save replaces values a conflict refused earlier (retrySave() passes them in).
    m_retry.reset();
    m_retryButton->hide();
    try {
        m_undoStack->push(scenarioChange(m_workspace, before, before ? m_loadedVersion : 0, after, text, mergeField,
                                         refused));
    } catch (const store::ConflictError &e) {
        m_selectAfterRefresh.clear();
        showConflict(e.message(), before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::ConnectionLostError &e) {
        m_selectAfterRefresh.clear();
        keepUntilReconnected(e.message(), before,
                             before && after && before->name == after->name ? after : std::nullopt);
        return false;
    } catch (const store::StoreError &e) {
        m_selectAfterRefresh.clear();
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return false;
    }
    return true;
}

void ScenariosPage::keepUntilReconnected(const QString &message, const std::optional<Scenario> &base,
                                      const std::optional<Scenario> &refused)
{
    // The form keeps showing the values; nothing can be read until the connection is back.
    if (!refused || !base) {
        setStatus(tr("Not saved: %1.").arg(message), true);
        m_workspace.startReconnecting();
        return;
    }
    if (!m_offlineBase) {
        // The first edit while offline: later ones pile up on it, all based on this version.
        m_offlineBase = base;
        m_retryAfterReconnect = m_loadedVersion;
    }
    m_retry = refused;
    m_retryButton->show();
    setStatus(tr("Not saved: %1. Your values are kept and saved when the connection is back "
                 "(unless someone changed the scenario meanwhile).")
                  .arg(message),
              true);
    m_workspace.startReconnecting();
}

void ScenariosPage::saveAfterReconnect()
{
    if (!m_offlineBase || !m_retry || !m_retryAfterReconnect)
        return;
    const Scenario base = *m_offlineBase;
    const Scenario mine = *m_retry;
    const int64_t version = *m_retryAfterReconnect;
    m_offlineBase.reset();
    m_retryAfterReconnect.reset();
    std::optional<Scenario> current;
    try {
        current = m_workspace.scenario(qs(mine.name));
    } catch (const store::StoreError &e) {
        setStatus(tr("Not saved: %1").arg(e.message()), true);
        return;
    }
    if (!current) {
        m_retry.reset();
        m_retryButton->hide();
        setStatus(tr("Not saved: \"%1\" was removed while the connection was down.").arg(qs(mine.name)), true);
        return;
    }
    // Based on the version the edit was made on: a change by someone else while the
    // connection was down is refused as a conflict naming them, with the edit replayed on
    // their version for a retry.
    m_loadedVersion = version;
    if (push(current, rebaseEdit(base, mine, *current), tr("Edit of %1 (saved after reconnecting)").arg(qs(mine.name))))
        setStatus(tr("Saved after reconnecting."));
}


void ScenariosPage::addPool()
{
    edit(tr("Add pool"), -1, [this](Scenario &s) {
        engine::Pool pool;
        const bool hasStatic = std::any_of(s.pools.begin(), s.pools.end(),
                                           [](const engine::Pool &p) { return p.role() == engine::PoolRole::StaticBase; });
        pool.gpuId = s.pools.empty() ? (m_workspace.gpu(QStringLiteral("h100-sxm")) ? "h100-sxm" : "")
                                     : s.pools.front().gpuId;
        if (hasStatic) {
            pool.name = "elastic";
            pool.tier = engine::PoolTier::OnDemand;
            pool.sizing = engine::PoolSizing::Auto;
            // Serve the overflow of what the static base carries.
            pool.workloads = s.pools.front().workloads;
        } else {
            pool.name = "base";
            pool.tier = engine::PoolTier::Reserved1y;
            pool.gpus = 8;
        }
        const std::string base = pool.name;
        for (int n = 2; std::any_of(s.pools.begin(), s.pools.end(), [&](const engine::Pool &p) { return p.name == pool.name; }); ++n)
            pool.name = base + ' ' + std::to_string(n);
        s.pools.push_back(pool);
    });
}

void ScenariosPage::removePool()
{
    const int row = m_pools->currentRow() >= 0 ? m_pools->currentRow() : m_pools->rowCount() - 1;
    if (row < 0)
        return;
    edit(tr("Remove pool"), -1, [row](Scenario &s) {
        if (row < int(s.pools.size()))
            s.pools.erase(s.pools.begin() + row);
    });
}

// ---------------------------------------------------------------------------------------------
// Evaluation

QWidget *ScenariosPage::buildResults()
{
    m_resultTabs = new QTabWidget(this);
    m_resultTabs->setObjectName("scenarioResultTabs");

    auto *evaluation = new QSplitter(Qt::Vertical, this);
    m_diagram = new ScenarioDiagramView(evaluation);
    m_resultTable = newResultsTable("scenarioResultTable");
    m_warnings = new QListWidget(this);
    m_warnings->setObjectName("scenarioWarnings");
    m_warnings->setWordWrap(true);
    m_warnings->setToolTip(tr("What to look at, with the reason: missing references, unpriced GPUs, lead times, "
                              "packing advice, OOM at a MIG boundary, unserved demand"));
    m_summary = newExplanation("scenarioSummary");
    auto *below = new QWidget(this);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(m_resultTable, 3);
    belowLayout->addWidget(m_summary);
    auto *warningsLabel = new QLabel(tr("Warnings"), below);
    QFont bold = warningsLabel->font();
    bold.setBold(true);
    warningsLabel->setFont(bold);
    belowLayout->addWidget(warningsLabel);
    belowLayout->addWidget(m_warnings, 2);
    evaluation->addWidget(m_diagram);
    evaluation->addWidget(below);
    evaluation->setStretchFactor(0, 3);
    evaluation->setStretchFactor(1, 2);

    m_resultTabs->addTab(evaluation, tr("&Evaluation"));
    m_resultTabs->addTab(buildCompare(), tr("&Compare"));
    m_resultTabs->addTab(buildDeployment(), tr("Deplo&yment YAML"));
    return m_resultTabs;
}

void ScenariosPage::evaluate()
{
    m_result.reset();
    m_error.clear();
    const auto scenario = m_workspace.scenario(currentName());
    if (scenario) {
        try {
            m_result = engine::evaluateScenario(*scenario, store::scenarioInputs(m_workspace));
        } catch (const engine::InputError &e) {
            m_error = tr("Cannot evaluate %1: %2").arg(currentName(), QString::fromUtf8(e.what()));
        }
    }
    showResult();
    updateYaml();
    emit evaluated();
}

void ScenariosPage::showResult()
{
    m_diagram->setResult(m_result);
    m_warnings->clear();
    m_resultTable->clearContents();
    m_resultTable->setRowCount(0);
    if (!m_result) {
        m_summary->setText(m_error.isEmpty() ? QString()
                                             : QStringLiteral("<span style='color:#c0392b'>%1</span>")
                                                   .arg(m_error.toHtmlEscaped()));
        return;
    }
    const engine::ScenarioResult &r = *m_result;
    const QStringList headers{tr("Pool"),           tr("GPU"),           tr("Tier"),         tr("Sharing"),
                              tr("GPUs"),           tr("Peak need"),     tr("Headroom at peak"), tr("Utilization"),
                              tr("Rate per GPU-h"), tr("Cost per day"),  tr("Cost per 30-day month"), tr("Cost over term")};
    m_resultTable->setColumnCount(int(headers.size()));
    m_resultTable->setHorizontalHeaderLabels(headers);
    m_resultTable->horizontalHeaderItem(4)->setToolTip(tr("Static: provisioned. Elastic: the most in use at once"));
    m_resultTable->horizontalHeaderItem(6)->setToolTip(
        tr("GPUs free at the busiest hour, in two parts: the headroom inference sizing planned into the need "
           "(free by design, so latency targets hold through a burst; counted in the peak need) and the GPUs "
           "spare beyond it (provisioned − used at the peak)"));
    m_resultTable->horizontalHeaderItem(7)->setToolTip(tr("GPU-hours used ÷ GPU-hours paid for"));
    m_resultTable->horizontalHeaderItem(11)->setToolTip(
        tr("The term's real hours: %1 h from %2 to %3").arg(formatCount(r.termHours), qs(r.startDate), qs(r.endDate)));
    m_resultTable->setRowCount(int(r.pools.size()) + 1);
    auto cell = [this](int row, int column, const QString &text, bool right = true) {
        auto *item = new QTableWidgetItem(text);
        if (right)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_resultTable->setItem(row, column, item);
        return item;
    };
    // Printed money: each figure in cents, each total the sum of the figures shown.
    const engine::ScenarioMoneyTable table = engine::scenarioMoneyTable(r);
    for (int i = 0; i < int(r.pools.size()); ++i) {
        const auto &p = r.pools[size_t(i)];
        cell(i, 0, qs(p.name), false)->setToolTip(p.role == engine::PoolRole::StaticBase ? tr("static base")
                                                                                           : tr("elastic top"));
        cell(i, 1, qs(p.gpuId), false);
        cell(i, 2, tierName(p.tier), false);
        cell(i, 3, partitioningName(p.partitioning), false);
        auto *gpus = cell(i, 4, formatCount(p.gpus));
        if (p.autoSized)
            gpus->setToolTip(p.reserveAnalysed ? tr("Sized for you: the reserve policy chose %1 (critical fractile %2)")
                                                     .arg(*p.reserveAnalysed)
                                                     .arg(p.criticalFractile, 0, 'f', 3)
                                               : tr("Sized for you"));
        cell(i, 5, formatCount(p.peakNeedGpus));
        cell(i, 6, tr("%1 (%2 planned, %3 spare)")
                       .arg(formatCount(p.headroomAtPeak), formatCount(p.plannedHeadroomGpus), formatCount(p.spareAtPeak)))
            ->setToolTip(tr("At the busiest hour: %1 planned by inference sizing (inside the peak need of %2) and %3 "
                            "spare (%4 provisioned − %5 used)")
                             .arg(gpuCount(p.plannedHeadroomGpus), formatCount(p.peakNeedGpus), gpuCount(p.spareAtPeak),
                                  formatCount(p.gpus), formatCount(p.gpus - p.spareAtPeak)));
        cell(i, 7, percent(p.utilization));
        if (p.priced) {
            cell(i, 8, qs(p.ratePerGpuHour.displayRate()) + QStringLiteral(" ") + qs(p.ratePerGpuHour.currency))
                ->setToolTip(tr("Rate card %1: %2 per GPU-hour").arg(qs(p.rateCardKey), qs(p.ratePerGpuHour.amount.toString())));
            const size_t shown = std::size_t(std::find(table.pools.begin(), table.pools.end(), p.name) - table.pools.begin());
            cell(i, 9, money(table.perDay.parts.at(shown)));
            cell(i, 10, money(table.perMonth.parts.at(shown)));
            auto *termCell = cell(i, 11, money(table.overTerm.parts.at(shown)));
            if (p.commitment && !p.commitment->coversTerm && p.gpus > 0) {
                termCell->setText(termCell->text() + QStringLiteral(" ⚠"));
                termCell->setToolTip(tr("%1 of the %2 commitment owed in full (%3 to %4); %5 upfront.")
                                         .arg(money(p.commitment->inHorizon), money(p.commitment->total),
                                              qs(p.commitment->startDate), qs(p.commitment->endDate),
                                              money(p.commitment->upfront)));
            }
        } else {
            for (int c = 8; c <= 11; ++c)
                cell(i, c, tr("not priced"))->setForeground(QColor(0xc0, 0x39, 0x2b));
        }
    }
    const int total = int(r.pools.size());
    QFont bold = m_resultTable->font();
    bold.setBold(true);
    auto totalCell = [&](int column, const QString &text, bool right = true) { cell(total, column, text, right)->setFont(bold); };
    totalCell(0, tr("Fleet"), false);
    totalCell(4, tr("%1 + %2").arg(formatCount(r.staticGpus), formatCount(r.elasticPeakGpus)));
    totalCell(7, percent(r.utilization));
    if (!table.pools.empty()) {
        // Totals are the sums of the amounts shown, so the column adds up to the cent.
        totalCell(9, money(table.perDay.total));
        totalCell(10, money(table.perMonth.total));
        totalCell(11, money(table.overTerm.total));
    }
    m_resultTable->resizeColumnsToContents();

    const auto scenario = m_workspace.scenario(currentName());
    const int horizon = scenario ? scenario->horizonMonths : 0;
    if (auto *start = m_form->findChild<QLineEdit *>(QStringLiteral("scenarioStartDate")))
        start->setPlaceholderText(tr("%1 (default)").arg(qs(r.startDate)));
    QString summary = tr("<b>%1</b>: %2 static GPUs and up to %3 elastic at the peak, %4 of the paid GPU-hours used. "
                         "Cost %5 per day, %6 per 30-day month, %7 over the %8-month term (%9 to %10, %11 h).")
                          .arg(qs(r.name).toHtmlEscaped(), formatCount(r.staticGpus), formatCount(r.elasticPeakGpus),
                               percent(r.utilization), money(table.perDay.total), money(table.perMonth.total),
                               money(table.overTerm.total))
                          .arg(horizon)
                          .arg(qs(r.startDate), qs(r.endDate), formatCount(r.termHours));
    for (const auto &p : r.pools)
        if (p.priced && p.commitment && !p.commitment->coversTerm && p.gpus > 0)
            summary += tr(" <b>%1</b> is a %2-year commitment owed in full: %3 from %4 to %5 (%6 upfront); the term "
                          "above consumes %7 of it (%8).")
                           .arg(qs(p.name).toHtmlEscaped())
                           .arg(p.commitment->termMonths / 12)
                           .arg(money(p.commitment->total), qs(p.commitment->startDate), qs(p.commitment->endDate),
                                money(p.commitment->upfront), money(p.commitment->inHorizon),
                                percent(p.commitment->shareConsumed));
    for (const auto &p : r.pools)
        if (p.headroomAtPeak > 0)
            summary += tr(" At its busiest hour <b>%1</b> has %2 of headroom: %3 planned by inference sizing and %4 "
                          "spare.")
                           .arg(qs(p.name).toHtmlEscaped(), gpuCount(p.headroomAtPeak),
                                formatCount(p.plannedHeadroomGpus), formatCount(p.spareAtPeak));
    if (const double idle = 1.0 - r.utilization; r.staticGpus > 0 && idle > 0.2)
        summary += tr(" %1 of the GPU-hours paid for sit idle: packing or an elastic top would recover part of it.")
                       .arg(percent(idle, 0));
    const engine::ServingAssumptions serving = m_workspace.servingAssumptions();
    summary += tr("<br>Workloads sized with the workspace's serving assumptions (Edit ▸ Serving Assumptions): %1.")
                   .arg(serving.residency == engine::KvResidency::Session
                            ? tr("KV residency <b>session</b> — every open session keeps its KV cache resident")
                            : tr("KV residency <b>request</b> — KV held while a request is in flight"));
    m_summary->setText(summary);

    for (const auto &w : r.warnings) {
        auto *item = new QListWidgetItem(w.pool.empty() ? qs(w.message)
                                                        : tr("%1: %2").arg(qs(w.pool), qs(w.message)),
                                         m_warnings);
        item->setToolTip(qs(w.code));
        item->setForeground(QColor(0xb0, 0x60, 0x00));
    }
    if (r.warnings.empty())
        new QListWidgetItem(tr("No warnings."), m_warnings);
}

QStringList ScenariosPage::warningTexts() const
{
    QStringList texts;
    if (m_result)
        for (const auto &w : m_result->warnings)
            texts << qs(w.message);
    return texts;
}

QString ScenariosPage::statusText() const
{
    return m_status->text();
}

// ---------------------------------------------------------------------------------------------
// Compare

QWidget *ScenariosPage::buildCompare()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    auto *top = new QHBoxLayout;
    m_compareList = new QListWidget(page);
    m_compareList->setObjectName("scenarioCompareList");
    m_compareList->setToolTip(tr("Tick 2 to 4 scenarios to compare"));
    m_compareList->setMaximumHeight(120);
    connect(m_compareList, &QListWidget::itemChanged, this, [this] {
        // The baseline choices are the ticked scenarios.
        const QString baseline = m_baseline->currentText();
        m_baseline->blockSignals(true);
        m_baseline->clear();
        for (int i = 0; i < m_compareList->count(); ++i)
            if (m_compareList->item(i)->checkState() == Qt::Checked)
                m_baseline->addItem(m_compareList->item(i)->text());
        m_baseline->setCurrentIndex(std::max(0, m_baseline->findText(baseline)));
        m_baseline->blockSignals(false);
        updateCompare();
    });
    m_baseline = new QComboBox(page);
    m_baseline->setObjectName("scenarioBaseline");
    m_baseline->setToolTip(tr("The scenario the others are compared against: deltas are other − baseline"));
    connect(m_baseline, &QComboBox::currentIndexChanged, this, &ScenariosPage::updateCompare);
    auto *side = new QFormLayout;
    side->addRow(tr("Baseline:"), m_baseline);
    top->addWidget(m_compareList, 2);
    top->addLayout(side, 1);
    layout->addLayout(top);
    m_compareNote = new QLabel(page);
    m_compareNote->setObjectName("scenarioCompareNote");
    m_compareNote->setWordWrap(true);
    layout->addWidget(m_compareNote);

    auto *split = new QSplitter(Qt::Vertical, page);
    m_compareTable = newResultsTable("scenarioCompareTable");
    m_compareCharts = new QTabWidget(page);
    m_costChart = new ChartPanel(page);
    m_costChart->setObjectName("scenarioCostByTierChart");
    m_gpuChart = new ChartPanel(page);
    m_gpuChart->setObjectName("scenarioGpusByPoolChart");
    m_utilChart = new ChartPanel(page);
    m_utilChart->setObjectName("scenarioUtilizationChart");
    m_compareCharts->addTab(m_costChart, tr("Monthly cost by tier"));
    m_compareCharts->addTab(m_gpuChart, tr("GPUs by pool"));
    m_compareCharts->addTab(m_utilChart, tr("Utilization"));
    split->addWidget(m_compareCharts);
    split->addWidget(m_compareTable);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    return page;
}

void ScenariosPage::setCompared(const QStringList &names)
{
    m_compareList->blockSignals(true);
    for (int i = 0; i < m_compareList->count(); ++i)
        m_compareList->item(i)->setCheckState(names.contains(m_compareList->item(i)->text()) ? Qt::Checked
                                                                                              : Qt::Unchecked);
    m_compareList->blockSignals(false);
    m_baseline->blockSignals(true);
    m_baseline->clear();
    for (int i = 0; i < m_compareList->count(); ++i)
        if (m_compareList->item(i)->checkState() == Qt::Checked)
            m_baseline->addItem(m_compareList->item(i)->text());
    m_baseline->setCurrentIndex(names.isEmpty() ? -1 : std::max(0, m_baseline->findText(names.first())));
    m_baseline->blockSignals(false);
    updateCompare();
}

QStringList ScenariosPage::compared() const
{
    QStringList names;
    if (!m_compareList)
        return names;
    const QString baseline = m_baseline ? m_baseline->currentText() : QString();
    for (int i = 0; i < m_compareList->count(); ++i)
        if (m_compareList->item(i)->checkState() == Qt::Checked)
            names << m_compareList->item(i)->text();
    if (names.contains(baseline)) {
        names.removeAll(baseline);
        names.prepend(baseline);
    }
    return names;
}

void ScenariosPage::updateCompare()
{
    if (!m_compareList)
        return;
    m_comparison.reset();
    m_compareResults.clear();
    m_compareTable->clear();
    m_compareTable->setRowCount(0);
    m_compareTable->setColumnCount(0);
    const QStringList names = compared();
    auto clearCharts = [this] {
        for (ChartPanel *panel : {m_costChart, m_gpuChart, m_utilChart}) {
            ChartFigure empty;
            empty.build = [](QChart::ChartTheme theme) {
                return newStyledChart(tr("Tick 2 to 4 scenarios to compare"), theme);
            };
            panel->setFigure(empty);
        }
    };
    if (names.size() < 2 || names.size() > 4) {
        m_compareNote->setText(names.size() > 4 ? tr("Compare at most 4 scenarios: untick %1.").arg(names.size() - 4)
                                                : tr("Tick 2 to 4 scenarios to compare them against the baseline."));
        clearCharts();
        emit compareUpdated();
        return;
    }
    try {
        const auto inputs = store::scenarioInputs(m_workspace);
        for (const QString &name : names) {
            const auto s = m_workspace.scenario(name);
            if (!s)
                throw engine::InputError("scenario", tr("%1 no longer exists").arg(name).toStdString());
            m_compareResults.push_back(engine::evaluateScenario(*s, inputs));
        }
        m_comparison = engine::compareScenarios(m_compareResults);
    } catch (const engine::InputError &e) {
        m_compareResults.clear();
        m_compareNote->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>")
                                   .arg(tr("Cannot compare: %1").arg(QString::fromUtf8(e.what())).toHtmlEscaped()));
        clearCharts();
        emit compareUpdated();
        return;
    }
    const auto &c = *m_comparison;
    QStringList headers{tr("Metric")};
    for (size_t i = 0; i < c.scenarios.size(); ++i) {
        headers << (i == 0 ? tr("%1 (baseline)").arg(qs(c.scenarios[i])) : qs(c.scenarios[i]));
        if (i > 0)
            headers << tr("Δ vs baseline");
    }
    m_compareTable->setColumnCount(int(headers.size()));
    m_compareTable->setHorizontalHeaderLabels(headers);
    m_compareTable->setRowCount(int(c.metrics.size()));
    for (int row = 0; row < int(c.metrics.size()); ++row) {
        const auto &m = c.metrics[size_t(row)];
        auto *label = new QTableWidgetItem(qs(m.label));
        label->setToolTip(qs(m.key));
        m_compareTable->setItem(row, 0, label);
        int column = 1;
        for (size_t i = 0; i < m.values.size(); ++i) {
            auto *value = new QTableWidgetItem(metricText(m, m.values[i], false));
            value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_compareTable->setItem(row, column++, value);
            if (i == 0)
                continue;
            const engine::Decimal d = i < m.deltas.size() ? m.deltas[i] : engine::Decimal();
            auto *delta = new QTableWidgetItem(metricText(m, d, true));
            delta->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            // Less money is good; for other metrics only the sign is shown.
            if (m.unit == "money" && !d.isZero())
                delta->setForeground(d.isNegative() ? QColor(0x1e, 0x88, 0x4c) : QColor(0xc0, 0x39, 0x2b));
            m_compareTable->setItem(row, column++, delta);
        }
    }
    m_compareTable->resizeColumnsToContents();
    m_costChart->setFigure(costByTierFigure(m_compareResults));
    m_gpuChart->setFigure(gpusByPoolFigure(m_compareResults));
    m_utilChart->setFigure(utilizationFigure(m_compareResults));
    const engine::ComparisonMetric *month = c.find("cost_per_month");
    QString note = tr("Baseline: %1.").arg(names.first());
    if (month && month->values.size() >= 2) {
        for (size_t i = 1; i < month->values.size(); ++i)
            note += QLatin1Char(' ') + tr("%1 costs %2 per month (%3).")
                                           .arg(qs(c.scenarios[i]), metricText(*month, month->values[i], false),
                                                metricText(*month, month->deltas[i], true));
    }
    m_compareNote->setText(note);
    emit compareUpdated();
}

// ---------------------------------------------------------------------------------------------
// Deployment YAML

QWidget *ScenariosPage::buildDeployment()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    auto *form = new QFormLayout;
    m_plan = new QComboBox(page);
    m_plan->setObjectName("scenarioYamlPlan");
    m_plan->setToolTip(tr("Elastic pool and workload whose scaling objects are shown"));
    m_yamlKind = new QComboBox(page);
    m_yamlKind->setObjectName("scenarioYamlKind");
    m_yamlKind->addItem(tr("KEDA ScaledObject (scale on queue depth)"), QStringLiteral("keda"));
    m_yamlKind->addItem(tr("DRA ResourceClaimTemplate (prioritized GPUs)"), QStringLiteral("dra"));
    m_yamlKind->setToolTip(tr("KEDA scales the elastic Deployment on waiting requests; the DRA claim asks for the "
                              "pool's GPU first and the fallbacks after it"));
    form->addRow(tr("Elastic pool:"), m_plan);
    form->addRow(tr("Object:"), m_yamlKind);
    layout->addLayout(form);
    m_planNote = new QLabel(page);
    m_planNote->setObjectName("scenarioYamlNote");
    m_planNote->setWordWrap(true);
    m_planNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_planNote);
    m_yaml = new QPlainTextEdit(page);
    m_yaml->setObjectName("scenarioYaml");
    m_yaml->setReadOnly(true);
    m_yaml->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    m_yaml->setFont(mono);
    layout->addWidget(m_yaml, 1);
    auto *buttons = new QHBoxLayout;
    auto *copy = new QPushButton(tr("Cop&y YAML"), page);
    auto *save = new QPushButton(tr("&Save YAML…"), page);
    connect(copy, &QPushButton::clicked, this, &ScenariosPage::copyYaml);
    connect(save, &QPushButton::clicked, this, &ScenariosPage::saveYamlWithDialog);
    buttons->addWidget(copy);
    buttons->addWidget(save);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_plan, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading)
            updateYaml();
    });
    connect(m_yamlKind, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading)
            updateYaml();
    });
    return page;
}

void ScenariosPage::updateYaml()
{
    if (!m_plan)
        return;
    const auto scenario = m_workspace.scenario(currentName());
    const int previous = m_plan->currentIndex();
    m_plans.clear();
    QString note;
    if (scenario && m_result) {
        try {
            m_plans = engine::planScenarioAutoscale(*scenario, store::scenarioInputs(m_workspace), *m_result);
        } catch (const engine::InputError &e) {
            note = tr("No scaling plan: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    const bool wasLoading = m_loading;
    m_loading = true;
    m_plan->clear();
    for (const auto &p : m_plans)
        m_plan->addItem(tr("%1 — %2").arg(qs(p.pool), qs(p.workload)));
    m_plan->setCurrentIndex(previous >= 0 && previous < m_plan->count() ? previous : (m_plan->count() ? 0 : -1));
    m_loading = wasLoading;

    const int index = m_plan->currentIndex();
    if (index < 0 || index >= int(m_plans.size())) {
        m_yaml->setPlainText(QString());
        m_planNote->setText(note.isEmpty() ? tr("This scenario has no elastic pool serving a workload: add an "
                                                "on-demand or spot pool to get KEDA and DRA objects.")
                                           : note);
        return;
    }
    const engine::AutoscalePlan &plan = m_plans[size_t(index)];
    std::string text;
    try {
        if (m_yamlKind->currentData().toString() == QLatin1String("dra")) {
            const auto alternatives = engine::deviceAlternatives(m_workspace.gpus(), plan.gpuId,
                                                                 scenario->autoscale.fallbackGpuIds,
                                                                 plan.gpusPerReplica);
            store::requireName("pool", "the elastic pool's name", plan.pool);
            store::requireName("workload", "the workload's name", plan.workload);
            text = store::draResourceClaimTemplateYaml(plan.pool + "-" + plan.workload + "-gpu",
                                                       plan.kubernetesNamespace, alternatives);
        } else {
            store::requireName("pool", "the elastic pool's name", plan.pool);
            store::requireName("workload", "the workload's name", plan.workload);
            text = store::kedaScaledObjectYaml(plan, plan.workload + "-" + plan.pool);
        }
    } catch (const engine::InputError &e) {
        m_yaml->setPlainText(QString());
        m_planNote->setText(tr("Cannot write the YAML: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    m_yaml->setPlainText(qs(text));
    m_planNote->setText(
        tr("%1 on %2: up to %3 requests/s per replica hold the SLO; the TTFT SLO leaves %4 s of queueing, so the "
           "fleet queue target is %5 requests (Little's law) and KEDA's threshold per replica %6 at %7. "
           "Replicas %8–%9, HPA tolerance %10, cooldown %11 s.")
            .arg(qs(plan.workload), qs(plan.gpuId))
            .arg(plan.requestsPerSPerReplica, 0, 'f', 2)
            .arg(plan.allowedQueueDelayS, 0, 'f', 2)
            .arg(plan.fleetQueueTarget, 0, 'f', 1)
            .arg(plan.thresholdPerReplica, 0, 'f', 1)
            .arg(formatCountOf(plan.peakReplicas, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
            .arg(plan.minReplicas)
            .arg(plan.maxReplicas)
            .arg(plan.tolerance, 0, 'f', 2)
            .arg(plan.cooldownSeconds));
}

QString ScenariosPage::yamlText() const
{
    return m_yaml->toPlainText();
}

void ScenariosPage::showYaml(const QString &kind)
{
    m_yamlKind->setCurrentIndex(std::max(0, m_yamlKind->findData(kind)));
    updateYaml();
}

void ScenariosPage::copyYaml()
{
    if (yamlText().isEmpty())
        return;
    QApplication::clipboard()->setText(yamlText());
    setStatus(tr("YAML copied to the clipboard."));
}

bool ScenariosPage::saveYaml(const QString &path, QString *error, store::ExistingFile existing) const
{
    if (yamlText().isEmpty()) {
        *error = tr("There is no YAML to save: the scenario has no elastic pool serving a workload.");
        return false;
    }
    try {
        store::writeExportFile(path, yamlText().toUtf8(), existing);
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    return true;
}

void ScenariosPage::saveYamlWithDialog()
{
    const QString kind = m_yamlKind->currentData().toString();
    const QString suggested = engine::kubernetesName(currentName().toStdString()).empty()
                                  ? QStringLiteral("scenario")
                                  : qs(engine::kubernetesName(currentName().toStdString()));
    const QString path = Dialogs::exportFileName(this, tr("Save YAML"),
                                                 suggested + QLatin1Char('-') + kind + QStringLiteral(".yaml"),
                                                 tr("YAML files (*.yaml *.yml)"),
                                                 {QStringLiteral("yaml"), QStringLiteral("yml")});
    if (path.isEmpty())
        return;
    QString error;
    if (!saveYaml(path, &error, store::ExistingFile::Replace)) {
        Dialogs::warning(this, tr("Save failed"), error);
        return;
    }
    setStatus(tr("Saved %1.").arg(path));
}

// ---------------------------------------------------------------------------------------------

QList<ChartPanel *> ScenariosPage::chartPanels() const
{
    return {m_costChart, m_gpuChart, m_utilChart};
}

std::optional<ChartFigure> ScenariosPage::currentFigure() const
{
    if (m_resultTabs->currentIndex() == 1) {
        auto *panel = qobject_cast<ChartPanel *>(m_compareCharts->currentWidget());
        if (panel && m_comparison)
            return panel->figure();
        return std::nullopt;
    }
    return m_diagram->figure();
}

std::optional<DeckTable> ScenariosPage::currentTable() const
{
    if (m_resultTabs->currentIndex() == 1)
        return m_comparison ? snapshotTable(*m_compareTable) : std::nullopt;
    return m_result ? snapshotTable(*m_resultTable) : std::nullopt;
}

void ScenariosPage::setStatus(const QString &text, bool error)
{
    m_lastMessage = text;
    m_status->setText(error ? QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(text.toHtmlEscaped()) : text);
}

void ScenariosPage::showConflict(const QString &message, const std::optional<Scenario> &refused)
{
    m_retry.reset();
    m_retryButton->hide();
    refreshList();  // the current version, and the version later saves are based on
    if (refused && refused->name == currentName().toStdString()) {
        m_retry = refused;
        m_retryButton->show();
        loadForm();
        setStatus(tr("Not saved: %1 The current version is shown with your values on top: "
                     "“Save my values again” saves them over it.")
                      .arg(message),
                  true);
        return;
    }
    setStatus(tr("Not saved: %1 The current version is shown.").arg(message), true);
}

bool ScenariosPage::retrySave()
{
    if (!m_retry)
        return false;
    const Scenario wanted = *m_retry;
    std::optional<Scenario> before;
    try {
        before = m_workspace.scenario(qs(wanted.name));
    } catch (const store::ConnectionLostError &e) {
        setStatus(tr("Not saved: %1. Your values are kept and saved when the connection is back.").arg(e.message()),
                  true);
        m_workspace.startReconnecting();
        return false;
    }
    if (!before) {
        m_retry.reset();
        m_retryButton->hide();
        setStatus(tr("Not saved: the scenario \"%1\" no longer exists.").arg(qs(wanted.name)), true);
        return false;
    }
    if (!push(before, wanted, tr("Edit of %1 (saved again)").arg(qs(wanted.name))))
        return false;
    setStatus(tr("Saved."));
    return true;
}

void ScenariosPage::showHistory()
{
    const QString name = currentName();
    if (name.isEmpty())
        return;
    ScenarioHistoryDialog dialog(m_workspace, name, this);
    if (dialog.exec() == QDialog::Accepted && dialog.chosenVersion() > 0)
        restoreVersion(dialog.chosenVersion());
}

bool ScenariosPage::restoreVersion(int64_t version)
{
    const QString name = currentName();
    const auto before = m_workspace.scenario(name);
    const auto old = m_workspace.scenarioAtVersion(name, version);
    if (!before || !old) {
        setStatus(tr("Not restored: \"%1\" has no version %2.").arg(name).arg(version), true);
        return false;
    }
    if (!push(before, old, tr("Restore version %1 of %2").arg(version).arg(name)))
        return false;
    setStatus(tr("Restored version %1 as version %2 (Ctrl+Z takes it back).").arg(version).arg(m_loadedVersion));
    return true;
}

} // namespace headroom::ui
