#include "uitestsupport.h"

#include <QRegularExpression>
#include "qtwarnings.h"

#include "ui/common/chartexport.h"
#include "ui/common/chartpanel.h"
#include "ui/common/dialogs.h"
#include "ui/inference/kvpage.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace headroom;

namespace {

QString pdfText(const QString &path)
{
    QProcess p;
    p.start("pdftotext", {path, "-"});
    REQUIRE(p.waitForFinished(20000));
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

TEST_CASE("A chart exports to a one-page vector PDF with its title, axis titles and caption as text")
{
    REQUIRE_FALSE(QStandardPaths::findExecutable("pdftotext").isEmpty());
    TempWorkspace ws;
    ui::KvPage page(*ws);
    QTemporaryDir dir;
    const QString path = dir.filePath("kv.pdf");
    QString error;
    REQUIRE(ui::exportFigure(page.chartPanels().first()->figure(), path, &error));
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    CHECK(bytes.startsWith("%PDF"));
    CHECK(bytes.count("/Type /Page\n") + bytes.count("/Type /Page ") + bytes.count("/Type/Page\n") <= 1);
    const QString text = pdfText(path);
    CHECK(text.contains("Concurrent streams vs context length"));
    CHECK(text.contains("Context length (tokens"));
    CHECK(text.contains("Streams per replica"));
    CHECK(text.contains("Llama 3.1 8B"));
    // wherever the caption wraps (pdftotext joins a word broken at its hyphen)
    CHECK(text.simplified().contains(QRegularExpression("Block-?\\s?paged KV cache")));
    // vector: no page-sized raster image inside
    CHECK_FALSE(bytes.contains("/Subtype /Image"));
}

TEST_CASE("SVG and PNG exports carry the chart - an unknown suffix is refused with a message")
{
    TempWorkspace ws;
    ui::KvPage page(*ws);
    const ui::ChartFigure &figure = page.chartPanels().first()->figure();
    QTemporaryDir dir;
    QString error;
    REQUIRE(ui::exportFigure(figure, dir.filePath("kv.svg"), &error));
    QFile svg(dir.filePath("kv.svg"));
    REQUIRE(svg.open(QIODevice::ReadOnly));
    const QByteArray svgBytes = svg.readAll();
    CHECK(svgBytes.contains("<svg"));
    CHECK(svgBytes.contains("Concurrent streams vs context length"));

    REQUIRE(ui::exportFigure(figure, dir.filePath("kv.png"), &error));
    const QImage png(dir.filePath("kv.png"));
    CHECK(png.width() == 2 * ui::kFigureWidth);
    CHECK(png.height() == 2 * ui::kFigureHeight);
    int coloured = 0;
    for (int y = 0; y < png.height(); y += 4)
        for (int x = 0; x < png.width(); x += 4) {
            const QColor c = png.pixelColor(x, y);
            coloured += c.saturation() > 80;
        }
    CHECK(coloured > 100); // the coloured curves were drawn

    CHECK_FALSE(ui::exportFigure(figure, dir.filePath("kv.docx"), &error));
    CHECK(error.contains(".pdf"));
}

TEST_CASE("Export from the chart panel asks for a file name, adds the suffix, and reports failures")
{
    TempWorkspace ws;
    ui::KvPage page(*ws);
    ui::ChartPanel *panel = page.chartPanels().first();
    QTemporaryDir dir;
    ui::Dialogs::setScripted(true);
    ui::Dialogs::queueFileAnswer(dir.filePath("from-menu"));
    panel->exportWithDialog("pdf");
    CHECK(QFile::exists(dir.filePath("from-menu.pdf")));

    ui::Dialogs::queueFileAnswer(dir.filePath("missing-folder/x.pdf"));
    // The file cannot be created in a folder that does not exist: said before anything is painted.
    panel->exportWithDialog("pdf");
    const QStringList shown = ui::Dialogs::takeShownMessages();
    ui::Dialogs::setScripted(false);
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("missing-folder/x.pdf"));
}

TEST_CASE("Export asks before replacing a file, refuses a symbolic link, and keeps the file on No")
{
    TempWorkspace ws;
    ui::KvPage page(*ws);
    ui::ChartPanel *panel = page.chartPanels().first();
    QTemporaryDir dir;
    const QString existing = dir.filePath("chart.png");
    {
        QFile file(existing);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("previous chart");
    }
    const auto contents = [](const QString &path) {
        QFile file(path);
        REQUIRE(file.open(QIODevice::ReadOnly));
        return file.readAll();
    };
    ui::Dialogs::setScripted(true);

    // The suffix is added after the picker: the picker never saw chart.png, so it is asked here.
    ui::Dialogs::queueFileAnswer(dir.filePath("chart"));
    ui::Dialogs::queueQuestionAnswer(false);
    panel->exportWithDialog("png");
    QStringList shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains(existing));
    CHECK(shown.first().contains("already exists"));
    CHECK(contents(existing) == "previous chart");

    // Picked as it is, it is asked too; Yes replaces it.
    ui::Dialogs::queueFileAnswer(existing);
    ui::Dialogs::queueQuestionAnswer(true);
    panel->exportWithDialog("png");
    shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("replace"));
    CHECK(contents(existing).startsWith("\x89PNG"));
    CHECK(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden) == QStringList{"chart.png"});

    // A symbolic link is refused with a warning and no question; the file it points to stays.
    const QString victim = dir.filePath("victim.svg");
    {
        QFile file(victim);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("keep me");
    }
    REQUIRE(QFile::link(victim, dir.filePath("link.svg")));
    ui::Dialogs::queueFileAnswer(dir.filePath("link.svg"));
    ui::Dialogs::queueQuestionAnswer(true);
    panel->exportWithDialog("svg");
    shown = ui::Dialogs::takeShownMessages();
    REQUIRE(shown.size() == 1);
    CHECK(shown.first().contains("symbolic link"));
    CHECK(contents(victim) == "keep me");
    ui::Dialogs::setScripted(false);
}
