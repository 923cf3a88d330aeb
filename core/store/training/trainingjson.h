#pragma once

#include "engine/training/training.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

// Training jobs as JSON (a workspace row's body, `data/samples/training-job.json`, imports and
// exports; format in the README). Keys are the snake_case field names engine::validate() uses.
// Errors throw StoreError naming the source, the job and the field.
namespace headroom::store {

// Every key, in the documented order (the order files are written in).
const QStringList &trainingJobKeys();

QJsonObject trainingJobToJson(const engine::TrainingJob &job);
// Parses and validates one job object; unknown keys are errors, absent keys take the defaults
// of engine::TrainingJob.
engine::TrainingJob trainingJobFromJson(const QJsonObject &object, const QString &sourceName);
// One job object as JSON text (a file's content); errors name `sourceName`.
engine::TrainingJob parseTrainingJob(const QByteArray &json, const QString &sourceName);
engine::TrainingJob readTrainingJobFile(const QString &path);
// File text with every key in documented order, one per line.
QByteArray trainingJobJsonText(const engine::TrainingJob &job);

} // namespace headroom::store
