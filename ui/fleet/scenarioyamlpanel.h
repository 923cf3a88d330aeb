#pragma once

#include "engine/fleet/autoscale.h"
#include "engine/fleet/scenario.h"
#include "store/common/exportfile.h"

#include <QString>
#include <QWidget>
#include <functional>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The Deployment YAML tab of the Scenarios page: for each elastic pool and workload of the
// evaluated scenario, the KEDA ScaledObject or DRA ResourceClaimTemplate a platform team
// deploys, with the numbers behind its thresholds; copied or saved to a file.
class ScenarioYamlPanel : public QWidget {
    Q_OBJECT
public:
    // `currentName` gives the scenario the page shows.
    ScenarioYamlPanel(store::Workspace &workspace, std::function<QString()> currentName, QWidget *parent = nullptr);

    // Plans the scaling objects of the current scenario from its evaluation `result`.
    void refresh(const std::optional<engine::ScenarioResult> &result);
    QString yamlText() const;
    void showYaml(const QString &kind); // "keda" | "dra"
    bool saveYaml(const QString &path, QString *error, store::ExistingFile existing) const;
    void copyYaml();
    void saveYamlWithDialog();

signals:
    void yamlCopied();
    void yamlSaved(const QString &path);

private:
    void updateYaml();

    store::Workspace &m_workspace;
    std::function<QString()> m_currentName;
    std::optional<engine::ScenarioResult> m_result;
    QComboBox *m_plan = nullptr;
    QComboBox *m_yamlKind = nullptr;
    QCheckBox *m_tolerance = nullptr; // KEDA: write the HPA tolerance (Kubernetes 1.33+)
    QPlainTextEdit *m_yaml = nullptr;
    QLabel *m_planNote = nullptr;
    std::vector<engine::AutoscalePlan> m_plans;
    bool m_loading = false;
};

} // namespace headroom::ui
