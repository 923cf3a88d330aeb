#pragma once

#include "common/backgroundjob.h"
#include "common/page.h"
#include "store/report/reporttables.h"

#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTimer;
class QUndoStack;

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

class DeckLayout;
class DeckPreview;

// The Report page (DESIGN §5): the deck's title page fields, its items in order (drag, or
// Up/Down with Alt+Up/Down; Delete removes), a preview of the selected item's page as it
// will print, and Export PDF with progress and Cancel. Every change is stored at once and
// undoable.
class ReportPage : public Page {
    Q_OBJECT
public:
    ReportPage(store::Workspace &workspace, QUndoStack *undoStack, QWidget *parent = nullptr);
    ~ReportPage() override;

    // The deck the preview shows, and how many times it was built anew since the page opened
    // (a change of the title page alone swaps its words instead).
    const DeckLayout *deckLayout() const { return m_layout.get(); }
    int deckBuilds() const { return m_deckBuilds; }

    // Snapshots into the report (undoable); returns the number of items afterwards.
    int addFigure(const ChartFigure &figure);
    int addTable(const QString &title, const QString &caption, const DeckTable &table, const QJsonObject &source = {});
    // Items already stamped, appended in order as one undoable step "Add `what` to the report".
    int addItems(const std::vector<store::ReportItem> &items, const QString &what);
    // "1 item", "3 items".
    static QString itemCountText(int count);

    QListWidget *itemList() const { return m_list; }
    // The deck page shown in the preview (0-based), or -1 when nothing is selected.
    int previewPage() const;
    int deckPageCount() const;
    void moveSelected(int delta);
    void removeSelected();
    // Pins the selected item (frozen as drawn now) or, when pinned, lets it follow the workspace
    // again; undoable.
    void togglePinSelected();
    // Asks for the PDF to write (Dialogs::exportFileName: confirms replacing a file, refuses a
    // symbolic link) and starts the export.
    void chooseExportPath();
    // Writes the deck to `path` off the GUI thread, replacing a file there (the caller has
    // confirmed it); exportFinished tells the outcome.
    void startExport(const QString &path);
    void cancelExport();
    bool exportRunning() const;

signals:
    void exportFinished(bool written, const QString &message);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();
    // The workspace's inputs changed: the deck is built anew, now when shown, else once shown.
    void inputsChanged();
    void updatePinButton();
    void refreshPreview();
    void editSettings(int field, const QString &value);
    void rowsDropped(int from, int to);
    void finishExport(bool written, const QString &message);

    store::Workspace &m_workspace;
    QUndoStack *m_undoStack;
    QLineEdit *m_title;
    QLineEdit *m_author;
    QLineEdit *m_date;
    QListWidget *m_list;
    QPushButton *m_up;
    QPushButton *m_down;
    QPushButton *m_remove;
    QPushButton *m_pin;
    QPushButton *m_export;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_status;
    DeckPreview *m_preview;
    QLabel *m_pageLabel;
    std::unique_ptr<DeckLayout> m_layout;
    std::vector<store::ReportItem> m_layoutItems;  // the items m_layout was built from
    int m_deckBuilds = 0;
    BackgroundJob m_job;
    bool m_refreshing = false;
    bool m_inputsStale = false;
    QTimer *m_inputsTimer;
};

} // namespace headroom::ui
