#include "reporttarget.h"

#include <QWidget>

namespace headroom::ui {

ReportTarget *ReportTarget::of(const QWidget *widget)
{
    for (QWidget *w = const_cast<QWidget *>(widget); w; w = w->parentWidget()) {
        if (auto *target = dynamic_cast<ReportTarget *>(w))
            return target;
    }
    return nullptr;
}

} // namespace headroom::ui
