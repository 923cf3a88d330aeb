#pragma once

#include "miglayoutpainter.h"

#include <QWidget>

namespace headroom::ui {

struct ChartFigure;

// Screen widget of the MIG layout view; click a GPU row to select it. Right-click exports the
// view through the same painting code.
class MigLayoutView : public QWidget {
    Q_OBJECT
public:
    explicit MigLayoutView(QWidget *parent = nullptr);

    void setPicture(MigLayoutPicture picture);
    const MigLayoutPicture &picture() const { return m_picture; }
    void setSelected(int gpu);
    ChartFigure figure(const QString &caption) const;
    // The texts of the last paint and where they went; a shortened block label shows
    // "tenant · profile" whole as a tooltip.
    const PaintedLabels &paintedLabels() const { return m_labels; }

signals:
    void gpuClicked(int gpu);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    bool event(QEvent *event) override;

private:
    MigLayoutPicture m_picture;
    QString m_caption;
    PaintedLabels m_labels;
};

} // namespace headroom::ui
