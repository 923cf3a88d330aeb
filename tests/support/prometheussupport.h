#pragma once

// Test helpers for the Prometheus source: a scripted HTTP server on a free loopback port, the
// private Prometheus of scripts/promserver.sh, and replica-hours compared field by field.

#include "engine/tracking/serving_metrics.h"

#include <catch2/catch.hpp>

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>
#include <cmath>
#include <functional>
#include <map>

namespace headroom {

// Answers each request (read up to the blank line; GET only) with respond(request) and closes
// the connection. Serviced by whichever event loop runs, such as the one a pull waits in.
class FakeHttpServer {
public:
    explicit FakeHttpServer(std::function<QByteArray(const QByteArray &request)> respond)
        : m_respond(std::move(respond))
    {
        REQUIRE(m_server.listen(QHostAddress::LocalHost, 0));
        QObject::connect(&m_server, &QTcpServer::newConnection, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                    QByteArray &buffer = m_buffers[socket];
                    buffer += socket->readAll();
                    if (!buffer.contains("\r\n\r\n"))
                        return;
                    requests << buffer;
                    socket->write(m_respond(buffer));
                    socket->disconnectFromHost();
                    m_buffers.erase(socket);
                });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }

    static QByteArray reply(int status, const QByteArray &body)
    {
        return "HTTP/1.1 " + QByteArray::number(status) + " Status\r\nContent-Type: application/json\r\nContent-Length: "
            + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    }

    QList<QByteArray> requests;

private:
    std::function<QByteArray(const QByteArray &)> m_respond;
    QTcpServer m_server;
    std::map<QTcpSocket *, QByteArray> m_buffers;
};

// The server scripts/promserver.sh started, and the CSV of the samples it holds. Fails the
// test (never skips) without it.
struct PrometheusTestServer {
    QUrl url;
    QString csv;
    qint64 startHour = 0;
    qint64 hours = 0;
};

inline PrometheusTestServer prometheusTestServer()
{
    PrometheusTestServer server;
    server.url = QUrl(qEnvironmentVariable("HEADROOM_TEST_PROMETHEUS"));
    server.csv = qEnvironmentVariable("HEADROOM_TEST_PROMETHEUS_CSV");
    server.startHour = qEnvironmentVariable("HEADROOM_TEST_PROMETHEUS_START").toLongLong() / 3600;
    server.hours = qEnvironmentVariable("HEADROOM_TEST_PROMETHEUS_HOURS").toLongLong();
    if (server.url.isEmpty() || server.csv.isEmpty() || server.hours <= 0)
        FAIL("needs the private Prometheus of scripts/promserver.sh (HEADROOM_TEST_PROMETHEUS, "
             "HEADROOM_TEST_PROMETHEUS_CSV, HEADROOM_TEST_PROMETHEUS_START, HEADROOM_TEST_PROMETHEUS_HOURS)");
    return server;
}

inline bool sameNumber(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

// Every replica-hour the same, every field exactly (a gauge without samples is NaN on both).
inline void requireSameHours(const engine::ServingHours &got, const engine::ServingHours &expected)
{
    REQUIRE(got.hours.size() == expected.hours.size());
    for (size_t i = 0; i < got.hours.size(); ++i) {
        const engine::ServingHour &a = got.hours[i];
        const engine::ServingHour &b = expected.hours[i];
        INFO(b.deployment << " / " << b.instance << " hour " << b.hour);
        CHECK(a.deployment == b.deployment);
        CHECK(a.instance == b.instance);
        CHECK(a.hour == b.hour);
        CHECK(a.gpus == b.gpus);
        CHECK(sameNumber(a.gpuUtilMean, b.gpuUtilMean));
        CHECK(sameNumber(a.gpuUtilPeak, b.gpuUtilPeak));
        CHECK(sameNumber(a.fbUsedMibMean, b.fbUsedMibMean));
        CHECK(sameNumber(a.kvCacheMean, b.kvCacheMean));
        CHECK(sameNumber(a.runningMean, b.runningMean));
        CHECK(sameNumber(a.waitingMean, b.waitingMean));
        CHECK(sameNumber(a.waitingPeak, b.waitingPeak));
        for (const auto &[x, y] : {std::pair{a.requests, b.requests}, std::pair{a.generationTokens, b.generationTokens},
                                   std::pair{a.promptTokens, b.promptTokens}}) {
            CHECK(x.increase == y.increase);
            CHECK(x.seconds == y.seconds);
        }
        CHECK(a.ttft.buckets == b.ttft.buckets);
        CHECK(a.e2e.buckets == b.e2e.buckets);
    }
}

} // namespace headroom
