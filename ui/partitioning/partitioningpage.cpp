#include "partitioningpage.h"

#include "engine/common/errors.h"
#include "engine/inference/kv.h"
#include "engine/partitioning/packing_advice.h"
#include "common/format.h"
#include "migfigure.h"
#include "miglayoutview.h"
#include "store/partitioning/migprofiles.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

enum TenantColumn { kName, kMemory, kCompute, kReplicas, kIsolation, kClass, kColumns };

QString isolationText(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

PartitioningPage::PartitioningPage(store::Workspace &workspace, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
{
    setObjectName("partitioningPage");
    try {
        m_profiles = store::shippedMigProfiles();
    } catch (const store::StoreError &e) {
        m_error = e.message();
    }
    m_summary = new QLabel(this);
    m_summary->setObjectName("migSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_warnings = new QLabel(this);
    m_warnings->setObjectName("migWarnings");
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::RichText);
    m_view = new MigLayoutView(this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);

    auto *editorBox = new QGroupBox(tr("Layout of the selected GPU"), this);
    auto *editorColumn = new QVBoxLayout(editorBox);
    auto *editor = new QHBoxLayout;
    editorColumn->addLayout(editor);
    m_layoutEdit = new QLineEdit(editorBox);
    m_layoutEdit->setObjectName("migLayoutEdit");
    m_layoutEdit->setPlaceholderText(tr("click a GPU above, e.g. 3g.40gb@0,2g.20gb@4,1g.10gb@6"));
    m_layoutEdit->setToolTip(tr("Instances as profile@start, separated by commas; validated as you type"));
    m_layoutCheck = new QLabel(editorBox);
    m_layoutCheck->setObjectName("migLayoutCheck");
    m_layoutCheck->setWordWrap(true);
    auto *apply = new QPushButton(tr("Apply"), editorBox);
    // The layout across the box, its check in words under it.
    editor->addWidget(m_layoutEdit, 1);
    editor->addWidget(apply);
    editorColumn->addWidget(m_layoutCheck);
    connect(m_layoutEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
        const engine::MigGpuProfiles *profiles = currentProfiles();
        if (!profiles || text.trimmed().isEmpty()) {
            m_layoutCheck->clear();
            return;
        }
        try {
            const engine::LayoutCheck check = engine::validateLayout(*profiles, engine::parseLayout(text.toStdString()));
            m_layoutCheck->setText(check.valid ? tr("<span style='color:#1e884c'>valid layout</span>")
                                               : tr("<span style='color:#c0392b'>%1</span>")
                                                     .arg(QString::fromStdString(check.reason).toHtmlEscaped()));
        } catch (const engine::InputError &e) {
            m_layoutCheck->setText(tr("<span style='color:#c0392b'>%1</span>").arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
        }
    });
    connect(apply, &QPushButton::clicked, this, [this] {
        QString reason;
        if (!applyLayout(m_selectedGpu, m_layoutEdit->text(), &reason))
            m_layoutCheck->setText(tr("<span style='color:#c0392b'>not applied: %1</span>").arg(reason.toHtmlEscaped()));
    });
    connect(m_view, &MigLayoutView::gpuClicked, this, &PartitioningPage::showSelectedLayout);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_summary);
    rightLayout->addWidget(scroll, 1);
    rightLayout->addWidget(editorBox);
    rightLayout->addWidget(m_warnings);

    layOutPage(buildInputs(), right, 470);

    // The seed example: small internal models, one slice each, and a few larger tenants.
    std::vector<engine::Tenant> tenants;
    for (int i = 1; i <= 40; ++i)
        tenants.push_back({QStringLiteral("tool-%1").arg(i, 2, 10, QLatin1Char('0')).toStdString(),
                           5.0 + (i % 4) * 1.0, 0, 1, "none"});
    tenants.push_back({"code-assist", 18, 0, 2, "soft"});
    tenants.push_back({"claims-review", 35, 0, 1, "regulated"});
    setTenants(tenants);
}

QWidget *PartitioningPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);
    auto *fleetBox = new QGroupBox(tr("Fleet"), panel);
    auto *form = new QFormLayout(fleetBox);
    m_gpu = new QComboBox(fleetBox);
    m_gpu->setObjectName("migGpu");
    m_gpu->setToolTip(tr("GPU type to partition; only GPUs with MIG profiles are listed"));
    for (const auto &p : m_profiles) {
        const auto gpu = m_workspace.gpu(QString::fromStdString(p.gpuId));
        m_gpu->addItem(gpu ? QString::fromStdString(gpu->name) : QString::fromStdString(p.gpuId),
                       QString::fromStdString(p.gpuId));
    }
    m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(QStringLiteral("h100-sxm"))));
    m_link = new QComboBox(fleetBox);
    m_link->setObjectName("migLink");
    for (const auto &preset : engine::linkPresets())
        m_link->addItem(QStringLiteral("%1 (%2 GB/s)").arg(QString::fromStdString(preset.name)).arg(preset.gbps),
                        preset.gbps);
    m_link->setToolTip(tr("Link that over-commit swaps models over; a cold swap costs bytes / bandwidth"));
    form->addRow(tr("GPU:"), m_gpu);
    form->addRow(tr("Swap link:"), m_link);
    connect(m_gpu, &QComboBox::currentIndexChanged, this, &PartitioningPage::recompute);
    connect(m_link, &QComboBox::currentIndexChanged, this, &PartitioningPage::recompute);

    auto *tenantsBox = new QGroupBox(tr("Tenants (models to serve)"), panel);
    auto *tenantsLayout = new QVBoxLayout(tenantsBox);
    m_tenants = new QTableWidget(0, kColumns, tenantsBox);
    m_tenants->setObjectName("migTenants");
    m_tenants->setHorizontalHeaderLabels(
        {tr("Name"), tr("Memory (GiB)"), tr("Compute\nslices"), tr("Replicas"), tr("Isolation"), tr("Class")});
    m_tenants->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tenants->horizontalHeader()->setSectionResizeMode(kName, QHeaderView::Stretch);
    m_tenants->verticalHeader()->hide();
    m_tenants->setToolTip(tr("Memory need per replica in GiB (weights, KV cache and runtime); compute slices 0 = "
                             "what the smallest fitting profile gives; isolation none/soft/regulated; class "
                             "flagship/internal/batch/embedding/training"));
    connect(m_tenants, &QTableWidget::itemChanged, this, &PartitioningPage::recompute);
    auto *add = new QPushButton(tr("Add"), tenantsBox);
    auto *remove = new QPushButton(tr("Remove"), tenantsBox);
    auto *fromWorkloads = new QPushButton(tr("From workloads"), tenantsBox);
    fromWorkloads->setToolTip(tr("One tenant per workload profile: memory = weights at its precision and TP plus "
                                 "20 % for KV cache and runtime"));
    connect(add, &QPushButton::clicked, this, [this] {
        m_updating = true;
        addTenantRow({QStringLiteral("tenant-%1").arg(m_tenants->rowCount() + 1).toStdString(), 8, 0, 1, "none"});
        m_updating = false;
        recompute();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_tenants->currentRow() >= 0 && m_tenants->rowCount() > 1) {
            m_tenants->removeRow(m_tenants->currentRow());
            recompute();
        }
    });
    connect(fromWorkloads, &QPushButton::clicked, this, &PartitioningPage::tenantsFromWorkloads);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addWidget(fromWorkloads);
    buttons->addStretch();
    tenantsLayout->addWidget(m_tenants);
    tenantsLayout->addLayout(buttons);
    layout->addWidget(fleetBox);
    layout->addWidget(tenantsBox, 1);
    return panel;
}

void PartitioningPage::addTenantRow(const engine::Tenant &tenant)
{
    const int row = m_tenants->rowCount();
    m_tenants->insertRow(row);
    const QStringList cells{QString::fromStdString(tenant.name), QString::number(tenant.memoryGiB),
                            QString::number(tenant.computeSlices), QString::number(tenant.replicas),
                            isolationText(tenant.isolation), QStringLiteral("internal")};
    for (int c = 0; c < kColumns; ++c)
        m_tenants->setItem(row, c, new QTableWidgetItem(cells[c]));
}

void PartitioningPage::setTenants(const std::vector<engine::Tenant> &tenants)
{
    m_updating = true;
    m_tenants->setRowCount(0);
    for (const auto &t : tenants)
        addTenantRow(t);
    m_updating = false;
    recompute();
}

std::vector<engine::Tenant> PartitioningPage::tenants() const
{
    std::vector<engine::Tenant> out;
    for (int row = 0; row < m_tenants->rowCount(); ++row) {
        auto text = [&](int column) { return m_tenants->item(row, column) ? m_tenants->item(row, column)->text().trimmed() : QString(); };
        engine::Tenant t;
        t.name = text(kName).toStdString();
        t.memoryGiB = text(kMemory).toDouble();
        t.computeSlices = text(kCompute).toInt();
        t.replicas = std::max(1, text(kReplicas).toInt());
        t.isolation = text(kIsolation).isEmpty() ? "none" : text(kIsolation).toStdString();
        out.push_back(t);
    }
    return out;
}

void PartitioningPage::tenantsFromWorkloads()
{
    std::vector<engine::Tenant> out;
    QStringList classes;
    for (const auto &w : m_workspace.workloads())
        if (const auto model = m_workspace.model(QString::fromStdString(w.modelId))) {
            out.push_back(engine::tenantForWorkload(w, *model));
            classes << QString::fromStdString(std::string(engine::toString(w.workloadClass)));
        }
    if (out.empty())
        return;
    setTenants(out);
    m_updating = true;
    for (int row = 0; row < m_tenants->rowCount(); ++row)
        m_tenants->item(row, kClass)->setText(classes.value(row));
    m_updating = false;
    recompute();
}

const engine::MigGpuProfiles *PartitioningPage::currentProfiles() const
{
    const QString id = m_gpu->currentData().toString();
    for (const auto &p : m_profiles)
        if (QString::fromStdString(p.gpuId) == id)
            return &p;
    return nullptr;
}

void PartitioningPage::recompute()
{
    if (m_updating)
        return;
    const engine::MigGpuProfiles *profiles = currentProfiles();
    const auto gpu = m_workspace.gpu(m_gpu->currentData().toString());
    m_selectedGpu = -1;
    m_editedLayouts.clear();
    m_layoutEdit->clear();
    if (!profiles || !gpu) {
        m_error = m_error.isEmpty() ? tr("Choose a GPU with MIG profiles.") : m_error;
        m_summary->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(m_error.toHtmlEscaped()));
        emit recomputed();
        return;
    }
    const double gpuGiB = double(gpu->memoryBytes) / double(engine::kGiB);
    const std::vector<engine::Tenant> list = tenants();
    try {
        m_error.clear();
        m_pack = engine::packTenants(*profiles, gpuGiB, list);
        m_sharing = engine::compareSharing(*profiles, gpuGiB, list, m_link->currentData().toDouble());
    } catch (const engine::InputError &e) {
        m_error = QString::fromUtf8(e.what());
        m_summary->setText(tr("<span style='color:#c0392b'>Cannot pack — %1</span>").arg(m_error.toHtmlEscaped()));
        m_view->setPicture({tr("MIG layout"), profiles, {}, -1});
        emit recomputed();
        return;
    }
    const QString gpuName = QString::fromStdString(gpu->name);
    m_view->setPicture(migPackPicture(*profiles, gpuName, m_pack));

    QStringList modes;
    for (const auto &option : m_sharing) {
        QString line = tr("<b>%1</b>: %2").arg(QString::fromStdString(engine::toString(option.mode)),
                                                    formatGpus(option.gpus));
        if (option.coldSwapSeconds > 0)
            line += tr(" (cold swap %1 s)").arg(option.coldSwapSeconds, 0, 'f', 3);
        modes << line;
    }
    // The saving first, then the layout that gives it; the advice below judges whether the
    // machinery is worth it by the fleet run without partitioning.
    const int64_t saved = std::max<int64_t>(m_pack.gpusWithoutMig - m_pack.gpus, 0);
    const QString saving = saved > 0 ? tr("MIG saves %1 of %2 %3").arg(formatCount(saved), formatCount(m_pack.gpusWithoutMig), gpuName)
                                     : tr("MIG saves no %1 here").arg(gpuName);
    m_summary->setText(tr("<b>%1</b>: %2 with MIG instead of %3 with one model per GPU — %4 (lower bound %5). "
                          "Slice memory used by tenants: %6 %.<br>%7")
                           .arg(saving, formatCount(m_pack.gpus), formatCount(m_pack.gpusWithoutMig),
                                m_pack.optimal ? tr("proven minimum") : tr("heuristic"),
                                formatCount(m_pack.lowerBound))
                           .arg(m_pack.memoryUtilization * 100, 0, 'f', 0)
                           .arg(modes.join(QStringLiteral(" · "))));

    std::vector<engine::PackingCandidate> candidates;
    for (int row = 0; row < m_tenants->rowCount(); ++row)
        candidates.push_back({list[size_t(row)].name,
                              m_tenants->item(row, kClass) ? m_tenants->item(row, kClass)->text().toStdString() : "internal",
                              list[size_t(row)].isolation, false});
    QStringList lines;
    for (const std::string &w : m_pack.oomWarnings)
        lines << tr("<span style='color:#c0392b'>OOM risk:</span> %1").arg(QString::fromStdString(w).toHtmlEscaped());
    for (const auto &a : engine::packingAdvice(candidates, long(m_pack.gpusWithoutMig), long(saved)))
        lines << tr("<b>%1 — %2:</b> %3")
                     .arg(QString::fromStdString(a.subject).toHtmlEscaped(), QString::fromStdString(a.advice).toHtmlEscaped(),
                          QString::fromStdString(a.reason).toHtmlEscaped());
    m_warnings->setText(lines.join(QStringLiteral("<br>")));
    emit recomputed();
}

void PartitioningPage::showSelectedLayout(int gpu)
{
    m_selectedGpu = gpu;
    if (gpu >= 0 && gpu < int(m_view->picture().layouts.size()))
        m_layoutEdit->setText(QString::fromStdString(engine::formatLayout(m_view->picture().layouts[size_t(gpu)])));
}

bool PartitioningPage::applyLayout(int gpu, const QString &layout, QString *reason)
{
    const engine::MigGpuProfiles *profiles = currentProfiles();
    MigLayoutPicture picture = m_view->picture();
    if (!profiles) {
        *reason = tr("choose a GPU with MIG profiles first");
        return false;
    }
    if (!replaceLayout(*profiles, picture.layouts, gpu, layout.toStdString(), reason))
        return false;
    m_editedLayouts[gpu] = engine::formatLayout(picture.layouts[size_t(gpu)]);
    picture.selected = gpu;
    m_view->setPicture(picture);
    m_layoutCheck->setText(tr("<span style='color:#1e884c'>applied to GPU %1</span>").arg(gpu + 1));
    return true;
}

QString PartitioningPage::summary() const
{
    return m_summary->text();
}

std::optional<ChartFigure> PartitioningPage::currentFigure() const
{
    // The picture explains its rows in its own legend; the caption states what the layout saves.
    if (!m_error.isEmpty() || m_pack.gpus <= 0)
        return migLayoutFigure(m_view->picture(), QString());
    return migLayoutFigure(m_view->picture(), migLayoutCaption(m_pack),
                           MigFigureInputs{m_gpu->currentData().toString(), tenants(), m_editedLayouts});
}

} // namespace headroom::ui
