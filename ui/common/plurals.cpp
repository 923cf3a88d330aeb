#include "plurals.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace headroom::ui {

QString englishNumerusForm(const QString &sourceText, int n)
{
    // "GPU(s)", "pass(es)": the ending only for other than one; "polic(y|ies)": either ending.
    static const QRegularExpression suffix(QStringLiteral("\\((e?s)\\)"));
    static const QRegularExpression either(QStringLiteral("\\(([^|()]*)\\|([^|()]*)\\)"));
    QString text = sourceText;
    text.replace(suffix, n == 1 ? QString() : QStringLiteral("\\1"));
    text.replace(either, n == 1 ? QStringLiteral("\\1") : QStringLiteral("\\2"));
    return text;
}

QString EnglishPlurals::translate(const char *, const char *sourceText, const char *, int n) const
{
    if (n < 0 || !sourceText)
        return {};
    const QString source = QString::fromUtf8(sourceText);
    if (!source.contains(QLatin1String("(s)")) && !source.contains(QLatin1String("(es)"))
        && !source.contains(QLatin1Char('|')))
        return {};
    return englishNumerusForm(source, n);
}

void installEnglishPlurals()
{
    auto *app = QCoreApplication::instance();
    if (!app || app->findChild<EnglishPlurals *>(QString(), Qt::FindDirectChildrenOnly))
        return;
    QCoreApplication::installTranslator(new EnglishPlurals(app));
}

} // namespace headroom::ui
