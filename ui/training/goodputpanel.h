#pragma once

#include "common/chartexport.h"

#include "engine/training/coadaptive.h"
#include "store/report/reporttables.h"

#include <QJsonObject>
#include <optional>

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// The Goodput tab of Training sizing (DESIGN §3.5): a job's Pollux goodput against its GPU
// count — the best micro-batch and accumulation at each count (engine/training/coadaptive.h),
// the throughput beside it and the statistical efficiency of the batch chosen — from the job's
// measured step times and gradient noise scale typed here. Recomputed as a field changes.
class GoodputPanel : public QWidget {
    Q_OBJECT
public:
    explicit GoodputPanel(QWidget *parent = nullptr);

    engine::GoodputJob job() const;
    int maxGpus() const;
    const std::vector<engine::GoodputPoint> &curve() const { return m_curve; }
    ChartPanel *chart() const { return m_chart; }
    QString summary() const;

private:
    void recompute();

    QDoubleSpinBox *m_alphaC = nullptr;
    QDoubleSpinBox *m_betaC = nullptr;
    QDoubleSpinBox *m_alphaR = nullptr;
    QDoubleSpinBox *m_betaR = nullptr;
    QDoubleSpinBox *m_alphaN = nullptr;
    QDoubleSpinBox *m_betaN = nullptr;
    QDoubleSpinBox *m_gamma = nullptr;
    QDoubleSpinBox *m_noise = nullptr;
    QSpinBox *m_initialBatch = nullptr;
    QSpinBox *m_maxBatch = nullptr;
    QSpinBox *m_maxMicro = nullptr;
    QSpinBox *m_perNode = nullptr;
    QSpinBox *m_maxGpus = nullptr;
    QLabel *m_summary = nullptr;
    ChartPanel *m_chart = nullptr;
    std::vector<engine::GoodputPoint> m_curve;
};

// Goodput and throughput (samples per second, left axis) and the efficiency of the batch chosen
// (right axis) at 1 … N GPUs, the most goodput marked. Its source ({"kind": "goodput-curve", the
// job's figures and the GPU count}) holds everything the report needs to draw it again.
// `curve` when already computed for the same job and count.
ChartFigure goodputFigure(const engine::GoodputJob &job, int maxGpus, std::vector<engine::GoodputPoint> curve = {});

// The report's redraw of a "goodput-curve" source; nullopt for another kind (problem empty) or
// a source whose figures are refused (problem says why).
std::optional<store::ReportItem> goodputReportItem(const store::Workspace &workspace, const QJsonObject &source,
                                                   QString *problem);

} // namespace headroom::ui
