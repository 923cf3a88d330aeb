#pragma once

#include <QStringList>
#include <QUrl>
#include <QWidget>

class QListWidget;
class QTextBrowser;
class QToolButton;

namespace headroom::ui {

// Help ▸ User Guide (F1): the bundled HTML guide, one section per page — what the page
// answers, its inputs with units and the formulas it computes — with a contents list and
// back/forward. The guide is a Qt resource (resources/guide/userguide.html).
class UserGuideWindow : public QWidget {
    Q_OBJECT
public:
    explicit UserGuideWindow(QWidget *parent = nullptr);

    // The guide's address, optionally at a section anchor.
    static QUrl guideUrl(const QString &anchor = QString());
    // The section anchor of a page by its navigator title: lower case, words joined by '-'
    // ("KV & concurrency" → "kv-concurrency").
    static QString anchorForPage(const QString &pageTitle);

    // Shows the guide at `anchor` (the top when empty or unknown).
    void showSection(const QString &anchor);
    // The anchor the guide is showing now (the fragment of its source), empty at the top.
    QString currentAnchor() const;
    // Every anchor name the loaded guide defines, and every internal link target (#name).
    QStringList anchors() const;
    QStringList internalLinks() const;

    QTextBrowser *browser() const { return m_browser; }
    QListWidget *contents() const { return m_contents; }

private:
    void fillContents();
    void syncContents();

    QTextBrowser *m_browser;
    QListWidget *m_contents;
    QToolButton *m_back;
    QToolButton *m_forward;
};

} // namespace headroom::ui
