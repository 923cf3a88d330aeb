#include "namelist.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace headroom::ui {

void NameList::setNames(const QStringList &names)
{
    QString current = currentName();
    if (!m_pending.isEmpty() && names.contains(m_pending)) {
        current = m_pending;
        m_pending.clear();
    }
    clear();
    addItems(names);
    const auto found = findItems(current, Qt::MatchExactly);
    if (!found.isEmpty())
        setCurrentItem(found.first());
    else if (count() > 0)
        setCurrentRow(0);
}

QString NameList::currentName() const
{
    return currentItem() ? currentItem()->text() : QString();
}

void NameList::selectName(const QString &name)
{
    const auto found = findItems(name, Qt::MatchExactly);
    if (!found.isEmpty())
        setCurrentItem(found.first());
}

void layOutEditorPage(QWidget *page, NameList *list, const std::vector<std::vector<QWidget *>> &buttonRows,
                      QWidget *form, QLabel *status, QWidget *statusAction)
{
    auto *left = new QWidget(page);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(list, 1);
    for (const auto &buttons : buttonRows) {
        auto *row = new QHBoxLayout;
        for (QWidget *button : buttons)
            row->addWidget(button);
        leftLayout->addLayout(row);
    }

    auto *scroll = new QScrollArea(page);
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    status->setWordWrap(true);
    auto *right = new QWidget(page);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(scroll, 1);
    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(status, 1);
    if (statusAction)
        statusRow->addWidget(statusAction);
    rightLayout->addLayout(statusRow);

    auto *split = new QSplitter(page);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({260, 1100});
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(split);
}

} // namespace headroom::ui
