#pragma once

#include <QListWidget>
#include <vector>

class QLabel;

namespace headroom::ui {

// The list of an entity editor page (workloads, training jobs): names in store order, the
// selection kept across refreshes, and a name to select once it appears (after an add,
// duplicate or rename).
class NameList : public QListWidget {
    Q_OBJECT
public:
    using QListWidget::QListWidget;

    // Replaces the names; selects the pending name if it is among them, else keeps the
    // current one, else the first.
    void setNames(const QStringList &names);
    QString currentName() const;
    void selectName(const QString &name);
    // Selects `name` at the next setNames() that lists it.
    void selectAfterRefresh(const QString &name) { m_pending = name; }

private:
    QString m_pending;
};

// The layout of an entity editor page: the list above rows of buttons on the left, the form
// (scrolled) above a status line on the right, split by a movable handle. `statusAction` (e.g. a
// retry button) sits right of the status line.
void layOutEditorPage(QWidget *page, NameList *list, const std::vector<std::vector<QWidget *>> &buttonRows,
                      QWidget *form, QLabel *status, QWidget *statusAction = nullptr);

} // namespace headroom::ui
