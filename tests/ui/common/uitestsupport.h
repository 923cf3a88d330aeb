#pragma once

#include "store/common/demoworkspace.h"
#include "store/common/workspace.h"
#include "ui/mainwindow.h"

#include <QFile>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <memory>

// Writes `content` to `name` in `dir`; its path.
inline QString writeFile(QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    QFile file(dir.filePath(name));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(content);
    return file.fileName();
}

// A fresh, seeded workspace in a temporary directory for one test.
struct TempWorkspace {
    QTemporaryDir dir;
    std::unique_ptr<headroom::store::Workspace> workspace;

    TempWorkspace()
    {
        REQUIRE(dir.isValid());
        workspace = std::make_unique<headroom::store::Workspace>(dir.filePath("test.headroom"));
    }
    headroom::store::Workspace &operator*() { return *workspace; }
};

// The main window on a fresh copy of the demo workspace, at `size` and shown (a null size:
// neither resized nor shown).
struct DemoWindow {
    QTemporaryDir dir;
    std::unique_ptr<headroom::ui::MainWindow> window;

    explicit DemoWindow(QSize size = QSize(1280, 800))
    {
        REQUIRE(dir.isValid());
        window = std::make_unique<headroom::ui::MainWindow>(std::make_unique<headroom::store::Workspace>(
            headroom::store::createDemoWorkspace(dir.filePath("demo.headroom"))));
        if (size.isNull())
            return;
        window->resize(size);
        window->show();
    }
};
