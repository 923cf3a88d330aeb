#include "dialogs.h"

#include <QFileDialog>
#include <QMessageBox>

namespace headroom::ui {

namespace {
bool g_scripted = false;
QStringList g_fileAnswers;
QStringList g_shown;

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
    return QFileDialog::getSaveFileName(parent, caption, suggested, filter);
}

QString Dialogs::openFileName(QWidget *parent, const QString &caption, const QString &filter)
{
    if (g_scripted)
        return nextFileAnswer();
    return QFileDialog::getOpenFileName(parent, caption, QString(), filter);
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
    g_shown.clear();
}

} // namespace headroom::ui
