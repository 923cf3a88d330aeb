#pragma once

#include "engine/inference/inference_sizing.h"
#include "engine/inference/kv.h"
#include "common/page.h"
#include "kvchart.h"
#include "kvlevers.h"

#include <QString>
#include <QStringList>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;
class PaintedFigureView;

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
    // The chart of the tab shown: concurrency, or the What if waterfall.
    std::optional<ChartFigure> currentFigure() const override;
    QJsonObject currentTableSource() const override;
    void setVariants(const std::vector<Variant> &variants);
    std::vector<Variant> variants() const;
    const std::vector<Outcome> &outcomes() const { return m_outcomes; }
    std::vector<int64_t> markedContexts() const;
    QString explanation() const;
    // The "What if" levers: which variant (a row of the variants table), the lever text, the
    // context, the peak of concurrent streams and the price per GPU-hour.
    KvLeverFigureInputs leverInputs() const;
    const KvLeverOutcome &leverOutcome() const { return m_leverOutcome; }

    static constexpr int kCurvePoints = kKvCurvePoints;

    // Reads a vLLM start-up log of the selected variant's deployment (the first when none is
    // selected), compares its KV cache with the page's and offers to keep the reserve it implies
    // for that model, GPU and TP as one undoable step. File ▸ Import and the page's button.
    void checkVllmLog();

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
    QWidget *buildLeverInputs();
    void refreshLeverVariants();
    void suggestPrice();
    void recomputeLevers();

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
    QTabWidget *m_chartTabs = nullptr;
    PaintedFigureView *m_leverChart = nullptr;
    QComboBox *m_leverVariant = nullptr;
    QLineEdit *m_levers = nullptr;
    QSpinBox *m_leverContext = nullptr;
    QSpinBox *m_leverStreams = nullptr;
    QLineEdit *m_leverPrice = nullptr;
    QLabel *m_leverPriceNote = nullptr;
    QLabel *m_leversError = nullptr;
    bool m_priceTyped = false;             // the price was typed, not suggested from a rate card
    KvLeverOutcome m_leverOutcome;
    bool m_updating = false;
};

} // namespace headroom::ui
