#pragma once

#include "engine/kv.h"
#include "page.h"

#include <QString>
#include <QStringList>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// KV & concurrency (DESIGN §3.1): how many concurrent streams each (model, GPU, weight
// precision, KV precision) variant holds as the context grows. Every change recomputes.
class KvPage : public Page {
    Q_OBJECT
public:
    struct Variant {
        QString modelId;
        QString gpuId;
        engine::WeightPrecision weights = engine::WeightPrecision::Bf16;
        engine::KvPrecision kv = engine::KvPrecision::Bf16;
    };
    // Result of one variant: the analysis at the marked contexts and the curve, or the
    // reason it could not be computed.
    struct Outcome {
        Variant variant;
        QString label;                     // model · GPU · precisions
        QStringList labelParts;
        QString shortLabel;                // only what differs from the other variants
        engine::KvResult result;
        std::vector<engine::StreamsAt> curve;
        int64_t maxContext = 0;            // the model's longest context, tokens
        QString error;
    };

    explicit KvPage(store::Workspace &workspace, QWidget *parent = nullptr);

    QList<ChartPanel *> chartPanels() const override;
    void setVariants(const std::vector<Variant> &variants);
    std::vector<Variant> variants() const;
    const std::vector<Outcome> &outcomes() const { return m_outcomes; }
    std::vector<int64_t> markedContexts() const;
    QString explanation() const;

    // Points on each curve (log-spaced from 1K tokens to the model's maximum context).
    static constexpr int kCurvePoints = 64;

signals:
    void recomputed();

private:
    QWidget *buildInputs();
    void addVariantRow(const Variant &variant);
    void refreshCatalogChoices();
    void recompute();
    void updateTable();
    void updateExplanation();
    engine::KvInputs inputsFor(const Variant &variant, QStringList *labelParts) const;

    store::Workspace &m_workspace;
    QTableWidget *m_variantTable = nullptr;
    QDoubleSpinBox *m_utilization = nullptr;
    QSpinBox *m_tp = nullptr;
    QSpinBox *m_blockSize = nullptr;
    QDoubleSpinBox *m_reserve = nullptr;
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
