#include "plurals.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace headroom::ui {

QString englishNumerusForm(const QString &sourceText, int n)
{
    static const QRegularExpression suffix(QStringLiteral("\\((e?s)\\)"));
    QString text = sourceText;
    text.replace(suffix, n == 1 ? QString() : QStringLiteral("\\1"));
    return text;
}

QString EnglishPlurals::translate(const char *, const char *sourceText, const char *, int n) const
{
    if (n < 0 || !sourceText)
        return {};
    const QString source = QString::fromUtf8(sourceText);
    if (!source.contains(QLatin1String("%n")))
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
