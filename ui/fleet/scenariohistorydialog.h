#pragma once

#include <QDialog>
#include <cstdint>

class QPushButton;
class QTableWidget;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The kept versions of one scenario, newest first: version, when (UTC), who saved it (the
// database role on a team server, the OS user for a file) and its description. Restore asks
// for confirmation and accepts the dialog with the chosen version; the caller saves it as a
// new version (undoable), so nothing is lost.
class ScenarioHistoryDialog : public QDialog {
    Q_OBJECT
public:
    ScenarioHistoryDialog(const store::Workspace &workspace, const QString &name, QWidget *parent = nullptr);

    // The version chosen for restoring; 0 until Restore was confirmed.
    int64_t chosenVersion() const { return m_chosen; }
    // Selects `version` in the list and asks to restore it; false when declined or absent.
    bool restore(int64_t version);

private:
    int64_t selectedVersion() const;
    void restoreSelected();

    QString m_name;
    int64_t m_current = 0;
    int64_t m_chosen = 0;
    QTableWidget *m_table = nullptr;
    QPushButton *m_restore = nullptr;
};

} // namespace headroom::ui
