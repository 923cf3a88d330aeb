#include "wheelguard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWheelEvent>

namespace headroom::ui {

namespace {

// The spin box or combo box `object` is, or is inside (a spin box's line edit); nullptr for any
// other object.
QWidget *guardedBox(QObject *object)
{
    for (auto *widget = qobject_cast<QWidget *>(object); widget; widget = widget->parentWidget()) {
        if (qobject_cast<QAbstractSpinBox *>(widget) || qobject_cast<QComboBox *>(widget))
            return widget;
        if (widget->isWindow())
            break;
    }
    return nullptr;
}

} // namespace

void WheelGuard::install()
{
    static WheelGuard *guard = nullptr;
    if (guard || !qApp)
        return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Polish) {
        if (auto *box = qobject_cast<QWidget *>(watched);
            box && (qobject_cast<QAbstractSpinBox *>(box) || qobject_cast<QComboBox *>(box))
            && box->focusPolicy() == Qt::WheelFocus)
            box->setFocusPolicy(Qt::StrongFocus);
    } else if (event->type() == QEvent::Wheel) {
        if (QWidget *box = guardedBox(watched); box && !box->hasFocus()) {
            // Not for the box: offered to the widgets around it, nearest first, until one takes
            // it (the scroll area). Done here rather than left to Qt, which passes a wheel event
            // on only when it came from the window system.
            const auto *wheel = static_cast<QWheelEvent *>(event);
            const auto *from = static_cast<QWidget *>(watched);
            for (QWidget *around = box->parentWidget(); around; around = around->parentWidget()) {
                QWheelEvent passed(from->mapTo(around, wheel->position()), wheel->globalPosition(), wheel->pixelDelta(),
                                   wheel->angleDelta(), wheel->buttons(), wheel->modifiers(), wheel->phase(),
                                   wheel->inverted(), wheel->source());
                passed.ignore();
                QApplication::sendEvent(around, &passed);
                if (passed.isAccepted() || around->isWindow())
                    break;
            }
            event->accept();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace headroom::ui
