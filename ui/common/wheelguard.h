#pragma once

#include <QObject>

namespace headroom::ui {

// The mouse wheel changes a spin box's or a combo box's value only while the box has the
// keyboard focus: a wheel turned over an unfocused box scrolls the page around it, as in
// professional Qt applications, so that scrolling a long form never edits the inputs it passes
// over. Boxes take the focus by click or Tab, not by the wheel (Qt::StrongFocus).
class WheelGuard : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    // Installs one guard on the application (again: nothing more).
    static void install();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
};

} // namespace headroom::ui
