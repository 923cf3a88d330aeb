#pragma once

#include "engine/training/cluster_replay.h"

#include <QByteArray>
#include <QString>
#include <map>
#include <vector>

// Inputs of the training cluster what-if (core/store/README.md, "Cluster workload CSV" and
// "Application traces"). Headroom ships Pollux's published traces (data/pollux/, SOURCE.md):
// six applications and eight 160-job workloads, named pollux-1 … pollux-8.
//
// A workload, one job a row:
//   name,time,application,num_replicas,batch_size
// time the submission in seconds from the start; num_replicas and batch_size the job's fixed
// GPUs and batch (what the fixed policy runs).
//
// Applications: a folder holding applications.csv (one row an application: init_batch,
// max_batch, min_local_batch, max_local_batch, max_epochs, fixed_batch, alpha_c, beta_c,
// alpha_n, beta_n, alpha_r, beta_r, gamma) and epochs.csv (application, batch, epoch,
// progress, grad_sqr, grad_var).
//
// Refused with a StoreError "<source>: line N: field "F": ...", nothing returned: a missing
// column, a bad number, a duplicate name, epochs out of order or of an unknown application, and
// anything past the import limits. The engine's validate() checks the rest when it replays.
namespace headroom::store {

std::vector<engine::ClusterApplication> parseClusterApplications(const QByteArray &applicationsCsv,
                                                                 const QByteArray &epochsCsv,
                                                                 const QString &sourceName);
// `folder` empty: the shipped applications.
std::vector<engine::ClusterApplication> readClusterApplications(const QString &folder);

std::vector<engine::ClusterJob> parseClusterWorkload(const QByteArray &csv, const QString &sourceName);
// A path, or pollux-1 … pollux-8 for a shipped workload.
std::vector<engine::ClusterJob> readClusterWorkload(const QString &pathOrName);

// The average job completion times Pollux's paper artifact reports on a shipped workload
// (policy "pollux", "tiresias", "optimus" → seconds); empty for any other workload.
std::map<QString, double> publishedAverageJct(const QString &pathOrName);

} // namespace headroom::store
