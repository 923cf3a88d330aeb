#pragma once

#include "store/tracking/prometheussource.h"

#include <QDateTime>
#include <QDialog>
#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <memory>
#include <optional>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace headroom::store {
class Workspace;
}

// A live Prometheus connected to the workspace open in the window (File ▸ Connect Metrics
// Source…): pulled at once and then on a timer, each pull of the hours not yet stored kept as
// `track pull` keeps it (one serving metrics import), so the Tracking page's serving section
// stays current and says as of when.
namespace headroom::ui {

// What is connected, kept per workspace file in the user's settings (never the token: a file
// that holds it, or HEADROOM_PROMETHEUS_TOKEN).
struct MetricsSourceSettings {
    QString url;
    QString tokenFile;        // empty: HEADROOM_PROMETHEUS_TOKEN when set, else none
    bool verifyTls = true;
    int refreshMinutes = 60;  // 5 … 1,440

    // The source these settings name: StoreError for a bad URL or token file.
    store::PrometheusSource source() const;
    static std::optional<MetricsSourceSettings> load(const QString &workspacePath);
    static void save(const QString &workspacePath, const MetricsSourceSettings &settings);
    static void forget(const QString &workspacePath);
};

class MetricsSourceConnection : public QObject {
    Q_OBJECT
public:
    explicit MetricsSourceConnection(store::Workspace &workspace, QObject *parent = nullptr);
    ~MetricsSourceConnection() override;

    // Connects (replacing what was connected) and pulls at once. StoreError, nothing changed,
    // when the settings name a bad URL or token file.
    void connectTo(const MetricsSourceSettings &settings);
    void disconnectSource();
    // Pulls now (nothing when a pull is running or nothing is connected).
    void refreshNow();

    bool isConnected() const { return m_settings.has_value(); }
    bool isPulling() const { return m_worker != nullptr; }
    const std::optional<MetricsSourceSettings> &settings() const { return m_settings; }
    // The end of the hours stored by the last pull that succeeded (or found nothing new), and
    // when it ran; invalid before the first.
    QDateTime asOf() const { return m_asOf; }
    QDateTime lastPull() const { return m_lastPull; }
    QString lastError() const { return m_lastError; }
    QDateTime nextPull() const;
    // One line for the Tracking page.
    QString statusText() const;

signals:
    void stateChanged();

private:
    void finishPull();

    store::Workspace &m_workspace;
    std::optional<MetricsSourceSettings> m_settings;
    store::PrometheusSource m_source;
    QTimer m_timer;
    std::unique_ptr<QThread> m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
    struct Outcome;
    std::shared_ptr<Outcome> m_outcome;
    QDateTime m_asOf;
    QDateTime m_lastPull;
    QString m_lastError;
};

// File ▸ Connect Metrics Source…: the server URL, the token file, TLS checking and the
// refresh interval, checked before it closes (a bad URL or token file keeps it open, saying
// why); "Disconnect" when one is connected.
class MetricsSourceDialog : public QDialog {
    Q_OBJECT
public:
    MetricsSourceDialog(const std::optional<MetricsSourceSettings> &current, QWidget *parent = nullptr);

    MetricsSourceSettings settings() const;
    bool disconnectRequested() const { return m_disconnect; }
    void accept() override;

private:
    QLineEdit *m_url = nullptr;
    QLineEdit *m_tokenFile = nullptr;
    QCheckBox *m_verifyTls = nullptr;
    QSpinBox *m_refresh = nullptr;
    QLabel *m_error = nullptr;
    bool m_disconnect = false;
};

} // namespace headroom::ui
