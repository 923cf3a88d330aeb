#include "progress.h"

#include <algorithm>
#include <cmath>
#include <unistd.h>

namespace headroom::cli {

Progress::Progress(QTextStream &err, QString label, bool forced)
    : m_err(err), m_label(std::move(label)), m_lines(forced)
{
    m_terminal = !forced && ::isatty(STDERR_FILENO) == 1;
}

bool Progress::operator()(double fraction)
{
    if (!m_terminal && !m_lines)
        return true;
    const double clamped = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
    const int percent = int(std::floor(clamped * 100.0));
    if (m_terminal && percent != m_shown) {
        m_shown = percent;
        m_err << '\r' << m_label << ": " << percent << " %" << Qt::flush;
    } else if (m_lines && percent / 10 != m_shown) {
        m_shown = percent / 10;
        m_err << m_label << ": " << m_shown * 10 << " %\n" << Qt::flush;
    }
    return true;
}

void Progress::finish()
{
    if (m_terminal && m_shown >= 0)
        m_err << '\r' << QString(m_label.size() + 8, QLatin1Char(' ')) << '\r' << Qt::flush;
    else if (m_lines && m_shown < 10)
        (*this)(1.0);
    m_shown = -1;
}

} // namespace headroom::cli
