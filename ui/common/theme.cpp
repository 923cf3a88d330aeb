#include "theme.h"

#include <QApplication>
#include <QComboBox>
#include <QHelpEvent>
#include <QToolTip>
#include <QPainter>
#include <QPalette>
#include <QProxyStyle>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>

namespace headroom::ui {

namespace {
Theme g_theme = Theme::Light;

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xee));
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x7a, 0x7a, 0x7a));
    return p;
}
// Fusion with check box and radio button outlines that show on a dark palette too: Fusion draws
// them a shade darker than the window, which on a dark window is all but invisible; and with a
// closed combo box's text shortened in the middle ("AWS · us-east-1 … 2025-06-01") when the box
// is narrower than its text, where Fusion cuts it off mid-letter. The list shows it whole.
class HeadroomStyle : public QProxyStyle {
public:
    HeadroomStyle()
        : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
    {
    }

    // The width a closed combo box's text may take: up to its arrow (Fusion lets the text run
    // a little past its edit field, into the gap before the arrow).
    int comboTextRoom(const QStyleOptionComboBox &box, const QWidget *widget) const
    {
        QRect field = subControlRect(CC_ComboBox, &box, SC_ComboBoxEditField, widget);
        const QRect arrow = subControlRect(CC_ComboBox, &box, SC_ComboBoxArrow, widget);
        if (!box.currentIcon.isNull())
            field.setLeft(field.left() + box.iconSize.width() + 4);
        const int right = arrow.isValid() && arrow.left() > field.left() ? arrow.left() - 2 : field.right();
        return right - field.left();
    }

    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget) const override
    {
        const auto *box = qstyleoption_cast<const QStyleOptionComboBox *>(option);
        if (element != CE_ComboBoxLabel || !box || box->editable || box->currentText.isEmpty()) {
            QProxyStyle::drawControl(element, option, painter, widget);
            return;
        }
        QStyleOptionComboBox shortened = *box;
        shortened.currentText = box->fontMetrics.elidedText(box->currentText, Qt::ElideMiddle, comboTextRoom(*box, widget));
        QProxyStyle::drawControl(element, &shortened, painter, widget);
    }

    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget) const override
    {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if ((element != PE_IndicatorCheckBox && element != PE_IndicatorRadioButton)
            || option->palette.color(QPalette::Window).lightness() >= 128)
            return;
        // Half way between the field and the text: clearly a box, quieter than a checked mark.
        const QColor base = option->palette.color(QPalette::Base);
        const QColor text = option->palette.color(QPalette::Text);
        QColor edge((base.red() + text.red()) / 2, (base.green() + text.green()) / 2, (base.blue() + text.blue()) / 2);
        if (!(option->state & State_Enabled))
            edge = edge.darker(140);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, element == PE_IndicatorRadioButton);
        painter->setPen(QPen(edge, 1));
        painter->setBrush(Qt::NoBrush);
        const QRectF box = QRectF(option->rect).adjusted(0.5, 0.5, -0.5, -0.5);
        if (element == PE_IndicatorRadioButton)
            painter->drawEllipse(box);
        else
            painter->drawRect(box);
        painter->restore();
    }
};

// A closed combo box whose text the style shortened shows it whole as its tooltip (above the
// box's own tooltip, if it has one).
class WholeComboText : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        auto *box = event->type() == QEvent::ToolTip ? qobject_cast<QComboBox *>(watched) : nullptr;
        const auto *style = box ? dynamic_cast<const HeadroomStyle *>(box->style()) : nullptr;
        if (!style || box->isEditable() || box->currentText().isEmpty())
            return false;
        QStyleOptionComboBox option;
        option.initFrom(box);
        option.currentText = box->currentText();
        option.currentIcon = box->itemIcon(box->currentIndex());
        option.iconSize = box->iconSize();
        if (box->fontMetrics().horizontalAdvance(option.currentText) <= style->comboTextRoom(option, box))
            return false;
        const QString tip = box->toolTip().isEmpty() ? option.currentText
                                                     : option.currentText + QStringLiteral("\n\n") + box->toolTip();
        QToolTip::showText(static_cast<QHelpEvent *>(event)->globalPos(), tip, box);
        return true;
    }
};

} // namespace

void applyTheme(Theme theme)
{
    g_theme = theme;
    if (!qApp->findChild<QObject *>(QStringLiteral("wholeComboText"), Qt::FindDirectChildrenOnly)) {
        auto *filter = new WholeComboText(qApp);
        filter->setObjectName(QStringLiteral("wholeComboText"));
        qApp->installEventFilter(filter);
    }
    QApplication::setStyle(new HeadroomStyle);
    QApplication::setPalette(theme == Theme::Dark ? darkPalette()
                                                  : QApplication::style()->standardPalette());
}

Theme currentTheme()
{
    return g_theme;
}

QChart::ChartTheme chartTheme()
{
    return g_theme == Theme::Dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
}

} // namespace headroom::ui
