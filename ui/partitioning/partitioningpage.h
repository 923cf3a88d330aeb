#pragma once

#include "engine/partitioning/mig.h"
#include "common/page.h"

#include <map>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class MigLayoutView;

// Partitioning (DESIGN §3.4): pack tenants onto MIG slices with the fewest GPUs, compare with
// exclusive GPUs, time-slicing, MPS and over-commit, flag OOMs at partition boundaries, say
// when not to pack, and show the layout to provision — editable per GPU with live validation.
class PartitioningPage : public Page {
    Q_OBJECT
public:
    explicit PartitioningPage(store::Workspace &workspace, QWidget *parent = nullptr);

    std::optional<ChartFigure> currentFigure() const override;
    const engine::PackResult &packResult() const { return m_pack; }
    const std::vector<engine::SharingOption> &sharing() const { return m_sharing; }
    std::vector<engine::Tenant> tenants() const;
    void setTenants(const std::vector<engine::Tenant> &tenants);
    void tenantsFromWorkloads();
    QString summary() const;
    QString errorText() const { return m_error; }
    MigLayoutView *layoutView() const { return m_view; }
    // Replaces the layout of one GPU after validation; false with the reason.
    bool applyLayout(int gpu, const QString &layout, QString *reason);

signals:
    void recomputed();

private:
    QWidget *buildInputs();
    void recompute();
    void addTenantRow(const engine::Tenant &tenant);
    void showSelectedLayout(int gpu);
    const engine::MigGpuProfiles *currentProfiles() const;

    store::Workspace &m_workspace;
    std::vector<engine::MigGpuProfiles> m_profiles;
    QComboBox *m_gpu = nullptr;
    QTableWidget *m_tenants = nullptr;
    QComboBox *m_link = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_warnings = nullptr;
    MigLayoutView *m_view = nullptr;
    QLineEdit *m_layoutEdit = nullptr;
    QLabel *m_layoutCheck = nullptr;
    engine::PackResult m_pack;
    std::vector<engine::SharingOption> m_sharing;
    QString m_error;
    int m_selectedGpu = -1;
    std::map<int, std::string> m_editedLayouts;   // layouts edited by hand since the last pack, by GPU
    bool m_updating = false;
};

} // namespace headroom::ui
