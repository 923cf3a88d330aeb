#pragma once

#include "common/chartexport.h"
#include "fragmappainter.h"

#include <QWidget>

namespace headroom::ui {

// Screen widget of the fragmentation map: tooltips name the node under the cursor, its GPUs'
// free shares and its category; right-click exports through the same painting code.
class FragMapView : public QWidget {
    Q_OBJECT
public:
    explicit FragMapView(QWidget *parent = nullptr);

    void setPicture(FragMapPicture picture);
    const FragMapPicture &picture() const { return m_picture; }
    ChartFigure figure() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    FragMapPicture m_picture;
};

} // namespace headroom::ui
