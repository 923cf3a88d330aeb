#pragma once

#include "engine/types.h"
#include "store/storeerror.h"

#include <QByteArray>
#include <QString>
#include <QVariant>
#include <catch2/catch.hpp>

namespace headroom::store::test {

// A GPU and a model whose every field differs from the defaults and from each other.
engine::GpuSpec sampleGpu(const std::string &id = "test-gpu");
engine::ModelSpec sampleModel(const std::string &id = "test-model");

QByteArray readBytes(const QString &path);
void writeBytes(const QString &path, const QByteArray &bytes);
QString sourceFile(const QString &relative);  // a file of the repository

// The message of the StoreError that `action` throws; fails the test when none is thrown.
template <typename Action>
std::string storeErrorOf(Action action)
{
    try {
        action();
    } catch (const StoreError &error) {
        return error.message().toStdString();
    }
    FAIL("expected a StoreError");
    return {};
}

// A separate connection to a workspace file, for looking under the store's API.
class RawDatabase {
public:
    explicit RawDatabase(const QString &path);
    ~RawDatabase();
    RawDatabase(const RawDatabase &) = delete;
    RawDatabase &operator=(const RawDatabase &) = delete;

    void exec(const QString &sql) const;
    QVariant scalar(const QString &sql) const;  // first column of the first row

private:
    QString m_connectionName;
};

} // namespace headroom::store::test
