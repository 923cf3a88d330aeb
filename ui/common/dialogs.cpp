#include "dialogs.h"

#include "settings.h"
#include "store/common/exportfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <algorithm>

namespace headroom::ui {

namespace {
bool g_scripted = false;
QStringList g_fileAnswers;
QStringList g_shown;
QList<bool> g_questionAnswers;
QStringList g_textAnswers;

QString nextFileAnswer()
{
    return g_fileAnswers.isEmpty() ? QString() : g_fileAnswers.takeFirst();
}
} // namespace

QString Dialogs::saveFileName(QWidget *parent, const QString &caption, const QString &suggested,
                              const QString &filter)
{
    if (g_scripted)
        return nextFileAnswer();
    // A bare or relative suggestion starts in the folder last used.
    const QString start = suggested.isEmpty() || QFileInfo(suggested).isRelative()
        ? QDir(settings::lastFolder()).filePath(suggested)
        : suggested;
    // Replacing is confirmed by the caller (exportFileName), the same way for every path.
    const QString path = QFileDialog::getSaveFileName(parent, caption, start, filter, nullptr,
                                                      QFileDialog::DontConfirmOverwrite);
    settings::rememberFolderOf(path);
    return path;
}

QString Dialogs::exportFileName(QWidget *parent, const QString &caption, const QString &suggested,
                                const QString &filter, const QStringList &suffixes)
{
    QString path = saveFileName(parent, caption, suggested, filter);
    if (path.isEmpty())
        return QString();
    const bool suffixed = std::any_of(suffixes.begin(), suffixes.end(), [&](const QString &suffix) {
        return path.endsWith(QLatin1Char('.') + suffix, Qt::CaseInsensitive);
    });
    if (!suffixes.isEmpty() && !suffixed)
        path += QLatin1Char('.') + suffixes.constFirst();
    const QString shown = QDir::toNativeSeparators(path);
    switch (store::exportTarget(path)) {
    case store::ExportTarget::SymLink:
        warning(parent, caption,
                QCoreApplication::translate("Dialogs", "%1 is a symbolic link (to %2). Exports never write through "
                                                       "a link: choose the file it points to, or another name.")
                    .arg(shown, QDir::toNativeSeparators(QFileInfo(path).symLinkTarget())));
        return QString();
    case store::ExportTarget::Other:
        warning(parent, caption,
                QCoreApplication::translate("Dialogs", "%1 is a folder or a special file, not a file: choose a "
                                                       "file name.")
                    .arg(shown));
        return QString();
    case store::ExportTarget::File:
        if (!question(parent, caption,
                      QCoreApplication::translate("Dialogs", "%1 already exists. Do you want to replace it?")
                          .arg(shown)))
            return QString();
        break;
    case store::ExportTarget::Missing:
        break;
    }
    return path;
}

QString Dialogs::openFileName(QWidget *parent, const QString &caption, const QString &filter)
{
    if (g_scripted)
        return nextFileAnswer();
    const QString path = QFileDialog::getOpenFileName(parent, caption, settings::lastFolder(), filter);
    settings::rememberFolderOf(path);
    return path;
}

void Dialogs::warning(QWidget *parent, const QString &title, const QString &text)
{
    if (g_scripted) {
        g_shown << text;
        return;
    }
    QMessageBox::warning(parent, title, text);
}

void Dialogs::information(QWidget *parent, const QString &title, const QString &text)
{
    if (g_scripted) {
        g_shown << text;
        return;
    }
    QMessageBox::information(parent, title, text);
}

bool Dialogs::question(QWidget *parent, const QString &title, const QString &text)
{
    if (g_scripted) {
        g_shown << text;
        return g_questionAnswers.isEmpty() ? false : g_questionAnswers.takeFirst();
    }
    return QMessageBox::question(parent, title, text, QMessageBox::Yes | QMessageBox::No, QMessageBox::No) ==
           QMessageBox::Yes;
}

QString Dialogs::textInput(QWidget *parent, const QString &title, const QString &label, const QString &initial)
{
    if (g_scripted)
        return g_textAnswers.isEmpty() ? QString() : g_textAnswers.takeFirst();
    bool ok = false;
    const QString text = QInputDialog::getText(parent, title, label, QLineEdit::Normal, initial, &ok);
    return ok ? text : QString();
}

QString Dialogs::passwordInput(QWidget *parent, const QString &title, const QString &label)
{
    if (g_scripted)
        return g_textAnswers.isEmpty() ? QString() : g_textAnswers.takeFirst();
    bool ok = false;
    const QString text = QInputDialog::getText(parent, title, label, QLineEdit::Password, QString(), &ok);
    return ok ? text : QString();
}

void Dialogs::queueQuestionAnswer(bool yes)
{
    g_questionAnswers << yes;
}

void Dialogs::queueTextAnswer(const QString &text)
{
    g_textAnswers << text;
}

void Dialogs::queueFileAnswer(const QString &path)
{
    g_fileAnswers << path;
}

QStringList Dialogs::takeShownMessages()
{
    QStringList shown;
    shown.swap(g_shown);
    return shown;
}

void Dialogs::setScripted(bool scripted)
{
    g_scripted = scripted;
    g_fileAnswers.clear();
    g_questionAnswers.clear();
    g_textAnswers.clear();
    g_shown.clear();
}

} // namespace headroom::ui
