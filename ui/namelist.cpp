#include "namelist.h"

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

} // namespace headroom::ui
