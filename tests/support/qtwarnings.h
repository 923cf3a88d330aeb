#pragma once

#include <QString>

// GUI tests fail on Qt warnings (tests/support/testmain.cpp). A test that provokes one on
// purpose — writing to a folder that does not exist, say — names it with this guard: while
// the guard lives, messages containing `text` do not fail the test.
class ExpectedQtWarning {
public:
    explicit ExpectedQtWarning(const QString &text);
    ~ExpectedQtWarning();
    ExpectedQtWarning(const ExpectedQtWarning &) = delete;
    ExpectedQtWarning &operator=(const ExpectedQtWarning &) = delete;
};
