#pragma once

#include "engine/inference/inference_sizing.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// Edit → Serving Assumptions: the one place where the workspace's serving assumptions are
// edited (memory utilization, runtime reserve, block size, efficiencies, planned headroom,
// in-flight quantile, queueing allowance, KV residency). The KV, Inference sizing and
// Scenarios pages and the CLI all size with them.
class ServingAssumptionsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ServingAssumptionsDialog(const engine::ServingAssumptions &assumptions, QWidget *parent = nullptr);

    engine::ServingAssumptions assumptions() const;
    void setAssumptions(const engine::ServingAssumptions &assumptions);

    // Opens the dialog on the workspace's assumptions; OK with a change applies it as one
    // undoable step. Returns true when something changed.
    static bool edit(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent);
    // The undoable change itself (no step when nothing differs).
    static void apply(store::Workspace &workspace, QUndoStack *undoStack, const engine::ServingAssumptions &after);
    // One line for the pages: "Memory utilization 0.90 · reserve 2.0 GiB · block 16 tokens · …".
    static QString summary(const engine::ServingAssumptions &assumptions);
    // The "Serving assumptions…" button a page shows beside its summary of them; it opens edit().
    static QPushButton *editButton(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent,
                                   const QString &objectName);

private:
    QDoubleSpinBox *m_utilization = nullptr;
    QDoubleSpinBox *m_reserve = nullptr;
    QComboBox *m_reserveMode = nullptr;
    QSpinBox *m_blockSize = nullptr;
    QDoubleSpinBox *m_prefill = nullptr;
    QDoubleSpinBox *m_decodeBandwidth = nullptr;
    QDoubleSpinBox *m_decodeCompute = nullptr;
    QDoubleSpinBox *m_headroom = nullptr;
    QDoubleSpinBox *m_quantile = nullptr;
    QDoubleSpinBox *m_allowance = nullptr;
    QComboBox *m_residency = nullptr;
    QSpinBox *m_batchedTokens = nullptr;
    QSpinBox *m_numSeqs = nullptr;
    QCheckBox *m_chunkedPrefill = nullptr;
    QCheckBox *m_prefixCaching = nullptr;
    QDoubleSpinBox *m_requestOverhead = nullptr;
    QLabel *m_measured = nullptr;
    QPushButton *m_forgetMeasured = nullptr;
    std::vector<engine::ReserveOverride> m_overrides; // kept per deployment, shown, and forgotten on request
    void showMeasured();
};

} // namespace headroom::ui
