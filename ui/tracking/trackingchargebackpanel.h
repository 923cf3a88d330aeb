#pragma once

#include "trackingchargeback.h"

#include "store/tracking/chargebackinputs.h"

#include <QThread>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDateEdit;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class ChartPanel;

// The Chargeback section of the Tracking page (DESIGN §3.7c): a claims ledger and a FOCUS
// export read on a worker thread (progress, Cancel), then the pool's bill split over tenants,
// models or namespaces by slice-hours beside the quota's claim count, the trend, the Kueue
// configuration that counts slices, and the FOCUS-style allocation CSV. Changing the basis, the
// idle share, the grouping or the period recomputes at once from the files already read.
class TrackingChargebackPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrackingChargebackPanel(store::Workspace &workspace, QWidget *parent = nullptr);
    ~TrackingChargebackPanel() override;

    // Reads both files on the worker thread; finished() tells when it is over.
    void load(const QString &claimsPath, const QString &focusPath);
    void cancel();
    bool isRunning() const;
    // Writes the allocation rows (track chargeback --csv) or the Kueue configuration; false
    // with the status saying why.
    bool exportAllocation(const QString &path);
    bool saveKueueConfig(const QString &path);

    const std::optional<ChargebackRun> &run() const { return m_run; }
    QString statusText() const;
    QTableWidget *sharesView() const { return m_shares; }
    std::optional<DeckTable> currentTable() const;
    QList<ChartPanel *> chartPanels() const;

signals:
    void finished(bool loaded);

private:
    void recompute();
    void updateButtons();
    void browse(QLineEdit *edit, const QString &caption);

    store::Workspace &m_workspace;
    QLineEdit *m_claims = nullptr;
    QLineEdit *m_focus = nullptr;
    QPushButton *m_load = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QComboBox *m_basis = nullptr;
    QComboBox *m_idle = nullptr;
    QComboBox *m_by = nullptr;
    QCheckBox *m_wholeSpan = nullptr;
    QDateEdit *m_from = nullptr;
    QDateEdit *m_to = nullptr;
    QLabel *m_tokens = nullptr;
    QLabel *m_status = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_shares = nullptr;
    ChartPanel *m_compare = nullptr;
    ChartPanel *m_trend = nullptr;
    QPlainTextEdit *m_kueue = nullptr;
    QPushButton *m_exportCsv = nullptr;
    QPushButton *m_saveKueue = nullptr;

    std::shared_ptr<const store::ChargebackInputs> m_inputs;
    std::optional<ChargebackRun> m_run;
    std::unique_ptr<QThread> m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
};

} // namespace headroom::ui
