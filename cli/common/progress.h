#pragma once

#include <QString>
#include <QTextStream>

namespace headroom::cli {

// Progress of a long verb on standard error, so standard output stays the result alone.
// On a terminal one line is rewritten in place ("frag: 42 %"); with --progress (`forced`)
// a line is written at every tenth, for logs and scripts; otherwise nothing. Use it as the
// engine's progress callback (it never cancels) and call finish() when the work is done.
class Progress {
public:
    Progress(QTextStream &err, QString label, bool forced);

    bool operator()(double fraction);
    void finish();

private:
    QTextStream &m_err;
    QString m_label;
    bool m_terminal = false;
    bool m_lines = false;
    int m_shown = -1;  // last percent (terminal) or tenth (lines) written
};

} // namespace headroom::cli
