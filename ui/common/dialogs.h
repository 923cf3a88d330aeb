#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace headroom::ui {

// Thin wrappers around file pickers and message boxes. A test queues the next answers in
// advance (and reads the messages that were shown) instead of driving modal dialogs.
class Dialogs {
public:
    // A file picker for a file to write. It does not ask about replacing a file: callers
    // that write to it do (exportFileName), callers that create something new refuse.
    static QString saveFileName(QWidget *parent, const QString &caption, const QString &suggested,
                                const QString &filter);
    // The file an export goes to, or "" when cancelled: the picker's answer, with the first of
    // `suffixes` added when it ends in none of them. A symbolic link is refused with a warning
    // (exports never write through links); an existing file is replaced only after question()
    // says Yes.
    static QString exportFileName(QWidget *parent, const QString &caption, const QString &suggested,
                                  const QString &filter, const QStringList &suffixes);
    static QString openFileName(QWidget *parent, const QString &caption, const QString &filter);
    static void warning(QWidget *parent, const QString &title, const QString &text);
    static void information(QWidget *parent, const QString &title, const QString &text);
    // A Yes/No question (No is the default); true for Yes.
    static bool question(QWidget *parent, const QString &title, const QString &text);
    // A line of text, starting from `initial`; "" when cancelled.
    static QString textInput(QWidget *parent, const QString &title, const QString &label, const QString &initial);
    // A password, typed hidden; "" when cancelled. Nothing keeps it.
    static QString passwordInput(QWidget *parent, const QString &title, const QString &label);

    // Test hooks: queued file answers ("" = Cancel) and the texts of messages shown.
    static void queueFileAnswer(const QString &path);
    // Queued answers to question() and textInput() / passwordInput() (one queue); without
    // one, question() says No and the inputs cancel.
    static void queueQuestionAnswer(bool yes);
    static void queueTextAnswer(const QString &text);
    static QStringList takeShownMessages();
    static void setScripted(bool scripted);
};

} // namespace headroom::ui
