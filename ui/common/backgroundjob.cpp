#include "backgroundjob.h"

#include <QThread>

#include <algorithm>
#include <cmath>

namespace headroom::ui {

JobProgress::JobProgress(std::shared_ptr<const std::atomic<bool>> cancelled, QPointer<QProgressBar> bar)
    : m_cancelled(std::move(cancelled)), m_bar(std::move(bar))
{
}

bool JobProgress::report(double share) const
{
    if (QProgressBar *bar = m_bar.data()) {
        const double clamped = std::clamp(std::isfinite(share) ? share : 0.0, 0.0, 1.0);
        const int value = bar->minimum() + int(std::lround(clamped * (bar->maximum() - bar->minimum())));
        QMetaObject::invokeMethod(bar, "setValue", Qt::QueuedConnection, Q_ARG(int, value));
    }
    return !cancelled();
}

bool JobProgress::cancelled() const
{
    return m_cancelled->load();
}

BackgroundJob::BackgroundJob() = default;

BackgroundJob::~BackgroundJob()
{
    if (m_thread) {
        cancel();
        m_thread->wait();
    }
}

bool BackgroundJob::start(QObject *context, QProgressBar *bar, std::function<void(const JobProgress &)> work,
                          std::function<void()> finished)
{
    if (m_thread)
        return false;
    m_cancelled = std::make_shared<std::atomic<bool>>(false);
    JobProgress progress(m_cancelled, QPointer<QProgressBar>(bar));
    m_thread.reset(QThread::create([work = std::move(work), progress] { work(progress); }));
    QObject::connect(m_thread.get(), &QThread::finished, context, [this, finished = std::move(finished)] {
        m_thread->wait(); // finished() has been emitted: only the thread's exit is left
        m_thread.reset();
        finished();
    });
    m_thread->start();
    return true;
}

bool BackgroundJob::isRunning() const
{
    return m_thread != nullptr;
}

void BackgroundJob::cancel()
{
    if (m_cancelled)
        *m_cancelled = true;
}

bool BackgroundJob::cancelRequested() const
{
    return m_cancelled && m_cancelled->load();
}

} // namespace headroom::ui
