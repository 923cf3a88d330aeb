#include "userguide.h"

#include <QAction>
#include <QHBoxLayout>
#include <QListWidget>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

namespace headroom::ui {

namespace {

constexpr int kAnchorRole = Qt::UserRole + 1;

// Visits every text fragment of the document.
template <typename Visit>
void forEachFragment(const QTextDocument *document, Visit visit)
{
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().isValid())
                visit(it.fragment());
}

} // namespace

UserGuideWindow::UserGuideWindow(QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_browser(new QTextBrowser(this))
    , m_contents(new QListWidget(this))
    , m_back(new QToolButton(this))
    , m_forward(new QToolButton(this))
{
    setObjectName("userGuide");
    setWindowTitle(tr("Headroom User Guide"));
    resize(980, 720);
    m_browser->setObjectName("userGuideBrowser");
    m_browser->setOpenExternalLinks(true);
    m_contents->setObjectName("userGuideContents");
    m_back->setObjectName("userGuideBack");
    m_forward->setObjectName("userGuideForward");
    m_back->setText(tr("Back"));
    m_forward->setText(tr("Forward"));
    m_back->setToolTip(tr("Back (Alt+Left)"));
    m_forward->setToolTip(tr("Forward (Alt+Right)"));
    m_back->setShortcut(QKeySequence::Back);
    m_forward->setShortcut(QKeySequence::Forward);
    m_back->setEnabled(false);
    m_forward->setEnabled(false);
    connect(m_back, &QToolButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_forward, &QToolButton::clicked, m_browser, &QTextBrowser::forward);
    connect(m_browser, &QTextBrowser::backwardAvailable, m_back, &QToolButton::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, m_forward, &QToolButton::setEnabled);
    connect(m_browser, &QTextBrowser::sourceChanged, this, [this] { syncContents(); });
    connect(m_contents, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { showSection(item->data(kAnchorRole).toString()); });
    connect(m_contents, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { showSection(item->data(kAnchorRole).toString()); });

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(m_forward);
    buttons->addStretch(1);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_contents);
    splitter->addWidget(m_browser);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 760});
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(splitter, 1);

    m_browser->setSource(guideUrl());
    fillContents();
}

QUrl UserGuideWindow::guideUrl(const QString &anchor)
{
    QUrl url(QStringLiteral("qrc:/headroom/guide/userguide.html"));
    if (!anchor.isEmpty())
        url.setFragment(anchor);
    return url;
}

QString UserGuideWindow::anchorForPage(const QString &pageTitle)
{
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    QString anchor = pageTitle.toLower().replace(nonWord, QStringLiteral("-"));
    while (anchor.startsWith(QLatin1Char('-')))
        anchor.remove(0, 1);
    while (anchor.endsWith(QLatin1Char('-')))
        anchor.chop(1);
    return anchor;
}

void UserGuideWindow::showSection(const QString &anchor)
{
    const bool known = !anchor.isEmpty() && anchors().contains(anchor);
    const QUrl target = guideUrl(known ? anchor : QString());
    if (m_browser->source() == target && known)
        m_browser->scrollToAnchor(anchor);
    else
        m_browser->setSource(target);
}

QString UserGuideWindow::currentAnchor() const
{
    return m_browser->source().fragment();
}

QStringList UserGuideWindow::anchors() const
{
    QStringList names;
    forEachFragment(m_browser->document(), [&names](const QTextFragment &fragment) {
        names << fragment.charFormat().anchorNames();
    });
    names.removeDuplicates();
    return names;
}

QStringList UserGuideWindow::internalLinks() const
{
    QStringList links;
    forEachFragment(m_browser->document(), [&links](const QTextFragment &fragment) {
        const QString href = fragment.charFormat().anchorHref();
        if (href.startsWith(QLatin1Char('#')))
            links << href.mid(1);
    });
    links.removeDuplicates();
    return links;
}

void UserGuideWindow::fillContents()
{
    // One entry per section heading (h2 with an anchor), in document order.
    m_contents->clear();
    for (QTextBlock block = m_browser->document()->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() != 2)
            continue;
        QString anchor;
        for (auto it = block.begin(); !it.atEnd() && anchor.isEmpty(); ++it)
            if (!it.fragment().charFormat().anchorNames().isEmpty())
                anchor = it.fragment().charFormat().anchorNames().constFirst();
        if (anchor.isEmpty())
            continue;
        auto *item = new QListWidgetItem(block.text().trimmed(), m_contents);
        item->setData(kAnchorRole, anchor);
    }
}

void UserGuideWindow::syncContents()
{
    const QString anchor = currentAnchor();
    const QSignalBlocker blocker(m_contents);
    m_contents->clearSelection();
    for (int i = 0; i < m_contents->count(); ++i) {
        if (m_contents->item(i)->data(kAnchorRole).toString() == anchor) {
            m_contents->setCurrentRow(i);
            return;
        }
    }
}

} // namespace headroom::ui
