#pragma once

#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv.h"
#include "common/page.h"
#include "kvchart.h"

#include <QString>
#include <QStringList>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// KV & concurrency (DESIGN §3.1): how many concurrent streams each (model, GPU, weight
// precision, KV precision, TP) variant holds as the context grows, with the workspace's
// serving assumptions. Every change recomputes; the variants are saved in the workspace.
class KvPage : public Page {
    Q_OBJECT
public:
    // One line: model × GPU × weight and KV precision × TP, saved in the workspace.
    using Variant = engine::KvVariant;
    using Outcome = KvOutcome;

    // Variant edits are saved in the workspace as undoable steps on `undoStack`.
    KvPage(store::Workspace &workspace, QUndoStack *undoStack = nullptr, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    QJsonObject currentTableSource() const override;
    void setVariants(const std::vector<Variant> &variants);
    std::vector<Variant> variants() const;
    const std::vector<Outcome> &outcomes() const { return m_outcomes; }
    std::vector<int64_t> markedContexts() const;
    QString explanation() const;

    static constexpr int kCurvePoints = kKvCurvePoints;

signals:
    void recomputed();

private:
    QWidget *buildInputs();
    void addVariantRow(const Variant &variant);
    void refreshCatalogChoices();
    void recompute();
    void variantsEdited();
    void loadSavedVariants();
    void updateServingSummary();
    void updateTable();
    void updateExplanation();

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack = nullptr;
    engine::ServingAssumptions m_serving;
    std::vector<Variant> m_savedVariants;   // what the workspace holds (or the first look)
    QTableWidget *m_variantTable = nullptr;
    QLabel *m_servingSummary = nullptr;
    QSpinBox *m_prefix = nullptr;
    QLineEdit *m_contexts = nullptr;
    QLabel *m_contextsError = nullptr;
    ChartPanel *m_chart = nullptr;
    QTableWidget *m_results = nullptr;
    QLabel *m_explanation = nullptr;
    std::vector<Outcome> m_outcomes;
    bool m_updating = false;
};

} // namespace headroom::ui
