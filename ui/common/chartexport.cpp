#include "chartexport.h"

#include "store/common/storeerror.h"

#include "dialogs.h"
#include "report/reporttarget.h"

#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QClipboard>
#include <QDir>
#include <QMenu>
#include <QRegularExpression>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QMimeData>
#include <QPageSize>
#include <QFontMetricsF>
#include <algorithm>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <memory>

namespace headroom::ui {

namespace {

constexpr qreal kCaptionHeight = 46;

void paintFigure(QPainter &painter, const ChartFigure &figure)
{
    renderFigure(painter, QRectF(0, 0, kFigureWidth, kFigureHeight), figure);
}

QImage figureImage(const ChartFigure &figure, qreal scale)
{
    QImage image(QSize(kFigureWidth, kFigureHeight) * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    paintFigure(painter, figure);
    return image;
}

QByteArray figureSvg(const ChartFigure &figure, QIODevice *device = nullptr)
{
    QBuffer buffer;
    QSvgGenerator svg;
    if (device) {
        svg.setOutputDevice(device);
    } else {
        buffer.open(QIODevice::WriteOnly);
        svg.setOutputDevice(&buffer);
    }
    svg.setSize(QSize(kFigureWidth, kFigureHeight));
    svg.setViewBox(QRect(0, 0, kFigureWidth, kFigureHeight));
    svg.setResolution(96);
    svg.setTitle(figure.title);
    svg.setDescription(figure.caption);
    QPainter painter(&svg);
    paintFigure(painter, figure);
    painter.end();
    return buffer.data();
}

} // namespace

FigureInk figureInk(QChart::ChartTheme theme)
{
    if (theme == QChart::ChartThemeDark)
        return {QColor(0x2e, 0x30, 0x3a), QColor(0xe8, 0xea, 0xed), QColor(0xa8, 0xb0, 0xb9), QColor(0x4a, 0x4f, 0x5a),
                QColor(0x2e, 0x30, 0x3a, 220)};
    return {Qt::white, QColor(0x2c, 0x3e, 0x50), QColor(0x6b, 0x77, 0x85), QColor(0xe3, 0xe7, 0xeb),
            QColor(255, 255, 255, 220)};
}

void renderFigure(QPainter &painter, const QRectF &target, const ChartFigure &figure, QChart::ChartTheme theme)
{
    const bool hasCaption = !figure.caption.isEmpty();
    // The caption's band: two lines' room at least, more when its text wraps onto more.
    QFont captionFont = painter.font();
    captionFont.setPointSizeF(9.5);
    const qreal captionHeight = !hasCaption
        ? 0
        : std::max(kCaptionHeight, QFontMetricsF(captionFont, painter.device())
                                           .boundingRect(QRectF(0, 0, target.width() - 48, 10000),
                                                         Qt::AlignLeft | Qt::TextWordWrap, figure.caption)
                                           .height()
                                       + 8);
    const QRectF chartRect(target.topLeft(), QSizeF(target.width(), target.height() - captionHeight));

    if (figure.paint) {
        const FigureInk ink = figureInk(theme);
        painter.save();
        painter.fillRect(target, ink.paper);
        figure.paint(painter, chartRect, ink);
        if (hasCaption) {
            painter.setFont(captionFont);
            painter.setPen(ink.muted);
            painter.drawText(QRectF(target.left() + 24, chartRect.bottom(), target.width() - 48, captionHeight - 6),
                             Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, figure.caption);
        }
        painter.restore();
        return;
    }
    // A chart only lays itself out inside a scene with a geometry.
    QGraphicsScene scene;
    std::unique_ptr<QChart> owned(figure.build(theme));
    QChart *chart = owned.get();
    scene.addItem(owned.release());
    chart->setGeometry(QRectF(QPointF(0, 0), chartRect.size()));
    scene.setSceneRect(QRectF(QPointF(0, 0), chartRect.size()));
    painter.save();
    painter.fillRect(target, chart->backgroundBrush());
    scene.render(&painter, chartRect, scene.sceneRect());
    if (hasCaption) {
        painter.setFont(captionFont);
        painter.setPen(chart->titleBrush().color());
        const QRectF captionRect(target.left() + 24, chartRect.bottom(), target.width() - 48, captionHeight - 6);
        painter.drawText(captionRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, figure.caption);
    }
    painter.restore();
}

bool exportFigure(const ChartFigure &figure, const QString &path, QString *error, store::ExistingFile existing)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("pdf") && suffix != QLatin1String("svg") && suffix != QLatin1String("png")) {
        *error = QObject::tr("Cannot export to %1: choose a .pdf, .svg or .png file name.").arg(path);
        return false;
    }
    try {
        store::ExportFile file(path, existing);
        if (suffix == QLatin1String("pdf")) {
            QPdfWriter pdf(&file.device());
            pdf.setResolution(96);
            pdf.setPageSize(QPageSize(QSizeF(kFigureWidth / 96.0, kFigureHeight / 96.0), QPageSize::Inch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setTitle(figure.title);
            pdf.setCreator(QStringLiteral("Headroom"));
            QPainter painter;
            if (!painter.begin(&pdf)) {
                *error = QObject::tr("Cannot write %1: the PDF could not be started.").arg(path);
                return false;
            }
            paintFigure(painter, figure);
            painter.end();
        } else if (suffix == QLatin1String("svg")) {
            figureSvg(figure, &file.device());
        } else if (!figureImage(figure, 2.0).save(&file.device(), "PNG")) {
            *error = QObject::tr("Cannot write %1: the image could not be saved.").arg(path);
            return false;
        }
        file.commit();
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    return true;
}

void copyFigure(const ChartFigure &figure)
{
    auto *mime = new QMimeData;
    mime->setImageData(figureImage(figure, 2.0));
    mime->setData(QStringLiteral("image/svg+xml"), figureSvg(figure));
    QApplication::clipboard()->setMimeData(mime);
}

void exportFigureWithDialog(QWidget *parent, const ChartFigure &figure, const QString &format)
{
    const QString filter = format == QLatin1String("pdf")   ? QObject::tr("PDF document (*.pdf)")
                           : format == QLatin1String("svg") ? QObject::tr("SVG image (*.svg)")
                                                            : QObject::tr("PNG image (*.png)");
    QString base = figure.title.toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    base.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    if (base.isEmpty())
        base = QStringLiteral("chart");
    const QString path = Dialogs::exportFileName(parent, QObject::tr("Export chart"),
                                                 QDir::home().filePath(base + QLatin1Char('.') + format), filter,
                                                 {format});
    if (path.isEmpty())
        return;
    QString error;
    if (!exportFigure(figure, path, &error, store::ExistingFile::Replace))
        Dialogs::warning(parent, QObject::tr("Export failed"), error);
}

void execFigureMenu(QWidget *parent, const ChartFigure &figure, const QPoint &globalPos)
{
    QMenu menu(parent);
    for (const char *format : {"pdf", "png", "svg"})
        menu.addAction(QObject::tr("Export as %1…").arg(QString::fromLatin1(format).toUpper()), parent,
                       [parent, figure, format] { exportFigureWithDialog(parent, figure, QLatin1String(format)); });
    menu.addSeparator();
    menu.addAction(QObject::tr("Copy"), parent, [figure] { copyFigure(figure); });
    if (ReportTarget *target = ReportTarget::of(parent))
        menu.addAction(QObject::tr("Add to Report"), parent, [target, figure] { target->addFigureToReport(figure); });
    menu.exec(globalPos);
}

} // namespace headroom::ui
