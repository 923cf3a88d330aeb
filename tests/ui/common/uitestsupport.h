#pragma once

#include "store/common/workspace.h"

#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <memory>

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
