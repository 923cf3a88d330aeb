#pragma once

#include <QPointer>
#include <QProgressBar>

#include <atomic>
#include <functional>
#include <memory>

class QObject;
class QThread;

namespace headroom::ui {

// What a background job's work sees: a progress report that also says whether to go on.
class JobProgress {
public:
    JobProgress(std::shared_ptr<const std::atomic<bool>> cancelled, QPointer<QProgressBar> bar);
    // Moves the bar to `share` (0..1) of its range, from any thread; false once Cancel was asked.
    bool report(double share) const;
    bool cancelled() const;

private:
    std::shared_ptr<const std::atomic<bool>> m_cancelled;
    QPointer<QProgressBar> m_bar;
};

// One long computation off the GUI thread (simulations, fits, exports) with progress on a bar
// and Cancel: what every page with a Run button shares. Destroying the job cancels the work
// and waits for it, so a page can close while it runs.
class BackgroundJob {
public:
    BackgroundJob();
    ~BackgroundJob();
    BackgroundJob(const BackgroundJob &) = delete;
    BackgroundJob &operator=(const BackgroundJob &) = delete;

    // Runs `work` on a new thread, reporting on `bar` (may be null), then `finished` on
    // `context`'s thread once the thread has ended (isRunning() is false by then). Refused
    // (false) while a job runs.
    bool start(QObject *context, QProgressBar *bar, std::function<void(const JobProgress &)> work,
               std::function<void()> finished);
    // Started and `finished` not yet called.
    bool isRunning() const;
    // Asks the work to stop; it ends at its next report().
    void cancel();
    bool cancelRequested() const;

private:
    std::unique_ptr<QThread> m_thread;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
};

} // namespace headroom::ui
