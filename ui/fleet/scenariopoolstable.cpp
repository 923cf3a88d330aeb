#include "scenariopoolstable.h"

#include "common/columnfit.h"
#include "common/fields.h"
#include "scenariocharts.h"
#include "store/common/workspace.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>
#include <algorithm>

namespace headroom::ui {

namespace {

using engine::Scenario;

// Merge ids of pool cell edits: one range per pool row, one id per cell.
constexpr int kPoolFieldBase = 1000;

enum PoolColumn { ColName, ColGpu, ColSizing, ColGpus, ColTier, ColPartitioning, ColMig, ColOwnedRate, ColCount };

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
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

QString tierTip()
{
    return QObject::tr("How the pool's GPUs are paid for. Owned and reserved (1 or 3 years) form the static base "
                       "and are paid every hour; on-demand and spot form the elastic top and are paid per GPU-hour "
                       "used");
}

} // namespace

ScenarioPoolsTable::ScenarioPoolsTable(store::Workspace &workspace, ScenarioEditor::SaveEdit saveEdit, QWidget *parent)
    : QTableWidget(0, ColCount, parent)
    , m_workspace(workspace)
    , m_saveEdit(std::move(saveEdit))
{
    setObjectName("scenarioPools");
    setHorizontalHeaderLabels({tr("Pool"), tr("GPU"), tr("Sizing"), tr("GPUs"), tr("Tier"), tr("Sharing"),
                                        tr("MIG layout per GPU"), tr("Owned rate (per GPU-h)")});
    horizontalHeaderItem(ColGpus)->setToolTip(
        tr("Static pools: GPUs provisioned. Elastic pools: the most GPUs they may scale to"));
    horizontalHeaderItem(ColTier)->setToolTip(tierTip());
    horizontalHeaderItem(ColMig)->setToolTip(
        tr("MIG pools: the profiles on every GPU, e.g. \"7 × 1g.10gb\" or \"4g.40gb, 2g.20gb, 1g.10gb\"; \"auto\" "
           "packs the assigned workloads"));
    horizontalHeaderItem(ColOwnedRate)->setToolTip(
        tr("Owned pools: amortised cost of an owned GPU per GPU-hour in the rate card's currency. Empty: the "
           "3-year reserved rate stands in"));
    verticalHeader()->hide();
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setMinimumHeight(150);
    showView(GpusView);
}

QStringList ScenarioPoolsTable::viewNames()
{
    return {tr("GPUs"), tr("Pricing"), tr("Sharing")};
}

void ScenarioPoolsTable::showView(int view)
{
    static const std::vector<int> columns[] = {{ColName, ColGpu, ColSizing, ColGpus},
                                              {ColName, ColTier, ColOwnedRate},
                                              {ColName, ColPartitioning, ColMig}};
    const std::vector<int> &shown = columns[std::clamp(view, 0, 2)];
    for (int c = 0; c < ColCount; ++c)
        setColumnHidden(c, std::find(shown.begin(), shown.end(), c) == shown.end());
    ColumnFit::fitColumns(this);
}

void ScenarioPoolsTable::editPool(int row, const QString &label, int mergeField,
                                  const std::function<void(engine::Pool &)> &change)
{
    m_saveEdit(label, mergeField, [&](Scenario &s) {
        if (row < int(s.pools.size()))
            change(s.pools[size_t(row)]);
    });
}

void ScenarioPoolsTable::load(const Scenario &scenario)
{
    const auto gpus = m_workspace.gpus();
    const int rows = int(scenario.pools.size());
    const bool rebuild = rowCount() != rows;
    if (rebuild) {
        // The old editors are deleted later by the view: unname them so that nothing finds
        // them meanwhile, then lay out the rows afresh.
        for (int r = 0; r < rowCount(); ++r)
            for (int c = 0; c < ColCount; ++c)
                if (QWidget *w = cellWidget(r, c)) {
                    w->setObjectName(QString());
                    w->blockSignals(true);
                }
        setRowCount(0);
        setRowCount(rows);
    }
    for (int r = 0; r < rows; ++r) {
        const engine::Pool &pool = scenario.pools[size_t(r)];
        auto field = [r](int column) { return kPoolFieldBase + r * ColCount + column; };
        auto editPool = [this, r](const QString &label, int mergeField, const std::function<void(engine::Pool &)> &change) {
            this->editPool(r, label, mergeField, change);
        };
        if (rebuild || !cellWidget(r, ColName)) {
            auto *name = new QLineEdit(this);
            name->setObjectName(QStringLiteral("poolName%1").arg(r));
            name->setToolTip(tr("Pool name, unique in the scenario"));
            name->setFrame(false);
            connect(name, &QLineEdit::editingFinished, this, [=] {
                const std::string text = name->text().trimmed().toStdString();
                editPool(tr("Rename pool"), -1, [text](engine::Pool &p) { p.name = text; });
            });
            setCellWidget(r, ColName, name);

            auto *gpu = new QComboBox(this);
            gpu->setObjectName(QStringLiteral("poolGpu%1").arg(r));
            gpu->setToolTip(tr("GPU type of the pool, from the catalog"));
            for (const auto &g : gpus)
                gpu->addItem(qs(g.name), qs(g.id));
            // As wide as the usual GPU name; longer ones are shortened, whole in the list.
            gpu->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
            gpu->setMinimumContentsLength(14);
            connect(gpu, &QComboBox::currentIndexChanged, this, [=] {
                const std::string id = gpu->currentData().toString().toStdString();
                editPool(tr("Edit pool GPU"), field(ColGpu), [id](engine::Pool &p) { p.gpuId = id; });
            });
            setCellWidget(r, ColGpu, gpu);

            auto *sizing = new QComboBox(this);
            sizing->setObjectName(QStringLiteral("poolSizing%1").arg(r));
            sizing->addItem(tr("Fixed count"), int(engine::PoolSizing::Fixed));
            sizing->addItem(tr("Size it for me"), int(engine::PoolSizing::Auto));
            sizing->setToolTip(tr("A fixed GPU count, or sized from the workloads: reserved pools by the reserve "
                                  "policy, owned pools and elastic pools for their peak, shared pools by packing"));
            connect(sizing, &QComboBox::currentIndexChanged, this, [=] {
                const auto value = engine::PoolSizing(sizing->currentData().toInt());
                editPool(tr("Edit pool sizing"), -1, [value](engine::Pool &p) { p.sizing = value; });
            });
            setCellWidget(r, ColSizing, sizing);

            auto *count = new QSpinBox(this);
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
            setCellWidget(r, ColGpus, count);

            auto *tier = new QComboBox(this);
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
            setCellWidget(r, ColTier, tier);

            auto *sharing = new QComboBox(this);
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
            setCellWidget(r, ColPartitioning, sharing);

            auto *mig = new QLineEdit(this);
            mig->setObjectName(QStringLiteral("poolMig%1").arg(r));
            mig->setFrame(false);
            mig->setToolTip(horizontalHeaderItem(ColMig)->toolTip());
            connect(mig, &QLineEdit::editingFinished, this, [=, this] {
                const auto profiles = parseMigLayout(mig->text());
                if (!profiles) {
                    emit inputRejected(tr("Not saved: MIG layout \"%1\" — write profiles such as \"7 × 1g.10gb\" or "
                                          "\"4g.40gb, 3g.40gb\", or auto.")
                                           .arg(mig->text()));
                    return;
                }
                editPool(tr("Edit MIG layout"), -1, [&](engine::Pool &p) { p.migProfiles = *profiles; });
            });
            setCellWidget(r, ColMig, mig);

            auto *owned = new QLineEdit(this);
            owned->setObjectName(QStringLiteral("poolOwnedRate%1").arg(r));
            owned->setFrame(false);
            owned->setPlaceholderText(tr("3-year rate"));
            owned->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("\\d{0,7}(\\.\\d{0,9})?")), owned));
            owned->setToolTip(horizontalHeaderItem(ColOwnedRate)->toolTip());
            connect(owned, &QLineEdit::editingFinished, this, [=] {
                const QString text = owned->text().trimmed();
                const auto rate = engine::Decimal::parse(text.toStdString());
                editPool(tr("Edit owned rate"), -1, [&](engine::Pool &p) {
                    p.ownedRatePerGpuHour = text.isEmpty() || !rate ? std::nullopt : rate;
                });
            });
            setCellWidget(r, ColOwnedRate, owned);
        }
        auto *name = static_cast<QLineEdit *>(cellWidget(r, ColName));
        auto *gpu = static_cast<QComboBox *>(cellWidget(r, ColGpu));
        auto *sizing = static_cast<QComboBox *>(cellWidget(r, ColSizing));
        auto *count = static_cast<QSpinBox *>(cellWidget(r, ColGpus));
        auto *tier = static_cast<QComboBox *>(cellWidget(r, ColTier));
        auto *sharing = static_cast<QComboBox *>(cellWidget(r, ColPartitioning));
        auto *mig = static_cast<QLineEdit *>(cellWidget(r, ColMig));
        auto *owned = static_cast<QLineEdit *>(cellWidget(r, ColOwnedRate));
        name->setText(qs(pool.name));
        if (gpu->findData(qs(pool.gpuId)) < 0) {
            gpu->addItem(tr("%1 (not in the catalog)").arg(qs(pool.gpuId)), qs(pool.gpuId));
        }
        gpu->setCurrentIndex(gpu->findData(qs(pool.gpuId)));
        sizing->setCurrentIndex(sizing->findData(int(pool.sizing)));
        // A pool sized for you has no count of its own to show: "auto" (its GPUs are in the
        // evaluation); an elastic pool's 0 is "no cap".
        const bool fixed = pool.sizing == engine::PoolSizing::Fixed;
        count->setSpecialValueText(!fixed ? tr("auto")
                                   : pool.role() == engine::PoolRole::ElasticTop ? tr("no cap")
                                                                                : QString());
        {
            const QSignalBlocker quiet(count);
            count->setValue(fixed ? int(std::min<int64_t>(pool.gpus, 100000)) : 0);
        }
        count->setEnabled(fixed);
        tier->setCurrentIndex(tier->findData(int(pool.tier)));
        sharing->setCurrentIndex(sharing->findData(int(pool.partitioning)));
        sharing->setEnabled(pool.role() == engine::PoolRole::StaticBase);
        mig->setText(pool.partitioning == engine::Partitioning::Mig ? migLayoutText(pool.migProfiles) : QString());
        mig->setEnabled(pool.partitioning == engine::Partitioning::Mig);
        owned->setText(pool.ownedRatePerGpuHour ? qs(pool.ownedRatePerGpuHour->toString()) : QString());
        owned->setEnabled(pool.tier == engine::PoolTier::Owned);
    }
    ColumnFit::fitColumns(this);
}

void ScenarioPoolsTable::addPool()
{
    m_saveEdit(tr("Add pool"), -1, [this](Scenario &s) {
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

void ScenarioPoolsTable::removePool()
{
    const int row = currentRow() >= 0 ? currentRow() : rowCount() - 1;
    if (row < 0)
        return;
    m_saveEdit(tr("Remove pool"), -1, [row](Scenario &s) {
        if (row < int(s.pools.size()))
            s.pools.erase(s.pools.begin() + row);
    });
}

} // namespace headroom::ui
