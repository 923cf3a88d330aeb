#pragma once

#include <QTranslator>

namespace headroom::ui {

// English numerus forms for tr() with %n: a source text writes its counted noun as
// "%n GPU(s)", "%n pass(es)" or "%n polic(y|ies)", and this translator gives "1 GPU", "2 GPUs", "0 GPUs"
// ("(s)"/"(es)" dropped for exactly one, kept without parentheses otherwise). A text may also
// carry only the noun ("GPU(s) per node", with the count shown beside it). Texts without a
// "(s)"/"(es)" and calls without a count are left to the next translator (the source text).
class EnglishPlurals : public QTranslator {
public:
    using QTranslator::QTranslator;
    QString translate(const char *context, const char *sourceText, const char *disambiguation = nullptr,
                      int n = -1) const override;
    bool isEmpty() const override { return false; }
};

// The numerus form of `sourceText` for `n` as EnglishPlurals gives it (exposed for tests).
QString englishNumerusForm(const QString &sourceText, int n);

// Installs one EnglishPlurals on the running application (once; later calls do nothing).
void installEnglishPlurals();

} // namespace headroom::ui
