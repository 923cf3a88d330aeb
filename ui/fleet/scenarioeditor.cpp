#include "scenarioeditor.h"

#include "common/columnfit.h"
#include "common/fields.h"
#include "scenariopoolstable.h"
#include "store/common/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QTabBar>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace headroom::ui {

namespace {

using engine::Scenario;

// Merge id of assignment edits (form fields use their binding index, pool cells their own range).
constexpr int kAssignField = 900;

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
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

} // namespace

ScenarioEditor::ScenarioEditor(store::Workspace &workspace, SaveEdit saveEdit, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_saveEdit(std::move(saveEdit))
{
    auto *column = new QVBoxLayout(this);
    auto group = [this](const QString &title) {
        auto *box = new QGroupBox(title, this);
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
    auto *horizon = new QSpinBox(this);
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
    m_rateCard = new QComboBox(this);
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
    auto *dateValidator = new QRegularExpressionValidator(QRegularExpression(QStringLiteral("(\\d{4}-\\d{2}-\\d{2})?")), this);
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
        if (auto *e = findChild<QLineEdit *>(QLatin1String(name))) {
            e->setValidator(dateValidator);
            e->setPlaceholderText(QStringLiteral("yyyy-mm-dd"));
        }
    auto *spot = new QDoubleSpinBox(this);
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
    auto *poolsBox = new QGroupBox(tr("GPU pools"), this);
    auto *poolsLayout = new QVBoxLayout(poolsBox);
    m_pools = new ScenarioPoolsTable(
        m_workspace,
        [this](const QString &label, int mergeField, const std::function<void(Scenario &)> &change) {
            return edit(label, mergeField, change);
        },
        poolsBox);
    connect(m_pools, &ScenarioPoolsTable::inputRejected, this, &ScenarioEditor::inputRejected);
    auto *poolViews = new QTabBar(poolsBox);
    poolViews->setObjectName("scenarioPoolViews");
    poolViews->setDocumentMode(true);
    poolViews->setExpanding(false);
    for (const QString &view : ScenarioPoolsTable::viewNames())
        poolViews->addTab(view);
    poolViews->setTabToolTip(ScenarioPoolsTable::GpusView, tr("GPU type, sizing and count of each pool"));
    poolViews->setTabToolTip(ScenarioPoolsTable::PricingView, tr("How each pool is paid for: tier and owned rate"));
    poolViews->setTabToolTip(ScenarioPoolsTable::SharingView, tr("How each pool's GPUs are shared: exclusive, MIG "
                                                                 "with its layout, time-slicing or MPS"));
    connect(poolViews, &QTabBar::currentChanged, m_pools, &ScenarioPoolsTable::showView);
    poolsLayout->addWidget(poolViews);
    auto *addPoolButton = new QPushButton(tr("Add &pool"), poolsBox);
    addPoolButton->setToolTip(tr("Add a pool: an elastic on-demand pool when a static one exists, else a static one"));
    auto *removePoolButton = new QPushButton(tr("Remove pool"), poolsBox);
    removePoolButton->setToolTip(tr("Remove the pool of the selected row"));
    connect(addPoolButton, &QPushButton::clicked, m_pools, &ScenarioPoolsTable::addPool);
    connect(removePoolButton, &QPushButton::clicked, m_pools, &ScenarioPoolsTable::removePool);
    poolsLayout->addWidget(m_pools);
    auto *poolButtons = new QHBoxLayout;
    poolButtons->addWidget(addPoolButton);
    poolButtons->addWidget(removePoolButton);
    poolButtons->addStretch(1);
    poolsLayout->addLayout(poolButtons);
    m_bindings.push_back({[this](const Scenario &s) { m_pools->load(s); }, tr("Pools")});

    // Assignments
    auto *assignBox = new QGroupBox(tr("Workloads and training jobs per pool"), this);
    auto *assignLayout = new QVBoxLayout(assignBox);
    m_assign = new QTableWidget(assignBox);
    m_assign->setObjectName("scenarioAssignments");
    m_assign->verticalHeader()->hide();
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
    auto *delay = new QDoubleSpinBox(this);
    delay->setObjectName("scenarioQueueDelay");
    delay->setRange(0, 600000);
    delay->setDecimals(0);
    delay->setSuffix(tr(" ms"));
    delay->setSpecialValueText(tr("from the TTFT SLO"));
    delay->setKeyboardTracking(false);
    delay->setToolTip(tr("Queueing delay the latency SLO allows, ms. At 0 it follows from each workload's TTFT P95 "
                         "SLO minus the prefill time of a P95 prompt. Queue target = max throughput × this delay"));
    scale->addRow(tr("Allowed queueing delay:"), delay);
    auto *tolerance = new QDoubleSpinBox(this);
    tolerance->setObjectName("scenarioHpaTolerance");
    tolerance->setRange(0, 0.99);
    tolerance->setDecimals(2);
    tolerance->setSingleStep(0.01);
    tolerance->setKeyboardTracking(false);
    tolerance->setToolTip(tr("HPA tolerance band, 0–0.99 (Kubernetes default 0.1): no scaling while the metric is "
                             "within ± this share of the target; dampens oscillation"));
    scale->addRow(tr("HPA tolerance:"), tolerance);
    auto *cooldown = new QSpinBox(this);
    cooldown->setObjectName("scenarioCooldown");
    cooldown->setRange(0, 86400);
    cooldown->setSuffix(tr(" s"));
    cooldown->setKeyboardTracking(false);
    cooldown->setToolTip(tr("Seconds KEDA waits after the last trigger before scaling in, 0–86,400 s; inference "
                            "replicas load weights slowly, so ~600 s"));
    scale->addRow(tr("Cooldown:"), cooldown);
    auto *polling = new QSpinBox(this);
    polling->setObjectName("scenarioPolling");
    polling->setRange(1, 3600);
    polling->setSuffix(tr(" s"));
    polling->setKeyboardTracking(false);
    polling->setToolTip(tr("How often KEDA reads the queue metric, 1–3,600 s"));
    scale->addRow(tr("Polling interval:"), polling);
    auto *minReplicas = new QComboBox(this);
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
    auto *reserve = new QComboBox(this);
    reserve->setObjectName("scenarioReservePolicy");
    reserve->addItem(tr("Critical fractile (cost optimum)"), int(engine::ReservePolicy::CriticalFractile));
    reserve->addItem(tr("P50 of hourly need"), int(engine::ReservePolicy::P50));
    reserve->addItem(tr("P75 of hourly need"), int(engine::ReservePolicy::P75));
    reserve->addItem(tr("Fixed counts only"), int(engine::ReservePolicy::Fixed));
    reserve->setToolTip(tr("How a reserved pool sized \"for me\" picks its GPUs: where P(hourly need > R) = reserved "
                           "÷ elastic rate (the optimum), or the P50 / P75 rule of thumb"));
    policy->addRow(tr("Reserve at:"), reserve);
    auto *pack = new QCheckBox(tr("Pack tenants onto shared GPUs"), this);
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
}

void ScenarioEditor::addLine(QFormLayout *form, const QString &label, const char *name, const QString &tip,
                            std::function<QString(const Scenario &)> get,
                            std::function<void(Scenario &, const QString &)> set)
{
    auto *line = new QLineEdit(this);
    line->setObjectName(QLatin1String(name));
    line->setToolTip(tip);
    form->addRow(label + QLatin1Char(':'), line);
    const int field = int(m_bindings.size());
    m_bindings.push_back({[line, get](const Scenario &s) {
                              line->setText(get(s));
                              line->setCursorPosition(0); // a long text shows its start
                          },
                          label});
    // edit() saves nothing when the text is what is stored already.
    connect(line, &QLineEdit::editingFinished, this, [this, line, set, field, label] {
        const QString text = line->text();
        edit(tr("Edit %1").arg(label.toLower()), field, [&](Scenario &s) { set(s, text); });
    });
}

void ScenarioEditor::load(const Scenario &scenario)
{
    const bool wasLoading = m_loading;
    m_loading = true;
    for (const Binding &b : m_bindings)
        b.load(scenario);
    m_loading = wasLoading;
}

bool ScenarioEditor::edit(const QString &label, int mergeField, const std::function<void(Scenario &)> &change)
{
    if (m_loading)
        return false;
    return m_saveEdit(label, mergeField, change);
}

void ScenarioEditor::showDefaultStartDate(const QString &date)
{
    if (auto *start = findChild<QLineEdit *>(QStringLiteral("scenarioStartDate")))
        start->setPlaceholderText(tr("%1 (default)").arg(date));
}

void ScenarioEditor::refreshChoices()
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

void ScenarioEditor::loadAssignments(const Scenario &scenario)
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
    // While one scenario is edited its rows keep the order shown: a tick that moved its row to the top
    // would put another workload under the cursor for the next click.
    if (m_assignScenario == scenario.name) {
        auto shownAt = [&](const Row &row) {
            for (int r = 0; r < m_assign->rowCount(); ++r) {
                const QTableWidgetItem *label = m_assign->item(r, 0);
                if (label && label->data(Qt::UserRole).toString() == row.name
                    && label->data(Qt::UserRole + 1).toBool() == row.training)
                    return r;
            }
            return m_assign->rowCount();  // new rows after those shown, in the order above
        };
        std::vector<int> at;
        at.reserve(rows.size());
        for (const Row &row : rows)
            at.push_back(shownAt(row));
        std::vector<size_t> order(rows.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return at[a] < at[b]; });
        std::vector<Row> shown;
        shown.reserve(rows.size());
        for (size_t i : order)
            shown.push_back(rows[i]);
        rows = std::move(shown);
    }
    m_assignScenario = scenario.name;

    // Headers on two lines, so that the pools' columns fit the editor's width.
    QStringList headers{tr("Workload /\ntraining job")};
    for (const auto &p : scenario.pools)
        headers << tr("%1\n(%2)").arg(qs(p.name), p.role() == engine::PoolRole::StaticBase ? tr("static")
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
    ColumnFit::fitColumns(m_assign);
}

} // namespace headroom::ui
