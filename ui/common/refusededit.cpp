#include "refusededit.h"

#include <QCoreApplication>

namespace headroom::ui {

QPushButton *newRetryButton(QWidget *parent, const char *objectName)
{
    auto *button = new QPushButton(QCoreApplication::translate("headroom::ui::RefusedEdit", "Save my values again"), parent);
    button->setObjectName(QLatin1String(objectName));
    button->setToolTip(QCoreApplication::translate("headroom::ui::RefusedEdit",
                                                   "Save the values you entered over the version now stored"));
    button->hide();
    return button;
}

} // namespace headroom::ui
