// The Alibaba GPU trace v2023 node and pod lists: the shipped files, and malformed lines
// rejected with file, line and field.
#include "store/fragmentation/fragtrace.h"
#include "publictraces.h"
#include "store/common/storeerror.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

using namespace headroom;
using namespace headroom::store;
using Catch::Matchers::Contains;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/alibaba-gpu-v2023/");

std::string errorOf(const std::function<void()> &read)
{
    try {
        read();
    } catch (const StoreError &e) {
        return e.message().toStdString();
    }
    return "no error";
}

const QByteArray kNodeHeader = "sn,cpu_milli,memory_mib,gpu,model\n";
const QByteArray kPodHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

} // namespace

TEST_CASE("the shipped GPU node list holds 1,213 nodes and 6,212 GPUs")
{
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const auto nodes = readFragNodes(kFolder + "openb_node_list_gpu_node.csv");
    REQUIRE(nodes.size() == 1213);
    int gpus = 0;
    for (const auto &n : nodes)
        gpus += n.gpus;
    CHECK(gpus == 6212);
    CHECK(nodes.front().id == "openb-node-0000");
    CHECK(nodes.front().cpuMilli == 64000);
    CHECK(nodes.front().memoryMiB == 262144);
    CHECK(nodes.front().gpus == 2);
    CHECK(nodes.front().gpuModel == "P100");
    const auto all = readFragNodes(kFolder + "openb_node_list_all_node.csv");
    REQUIRE(all.size() == 1523);
    CHECK(all.front().gpus == 0);
    CHECK(all.front().gpuModel.empty());
}

TEST_CASE("the default pod list reads shares, model lists and times")
{
    SKIP_WITHOUT_PUBLIC_TRACES("alibaba-gpu-v2023");
    const auto tasks = readFragTasks(kFolder + "openb_pod_list_default.csv");
    REQUIRE(tasks.size() == 8152);
    CHECK(tasks[1].id == "openb-pod-0001");
    CHECK(tasks[1].cpuMilli == 6000);
    CHECK(tasks[1].memoryMiB == 12288);
    CHECK(tasks[1].gpus == 1);
    CHECK(tasks[1].gpuMilli == 460);
    CHECK(tasks[1].creationTime == 427061);
    CHECK(tasks[1].deletionTime == 12902960);
    CHECK(std::all_of(tasks.begin(), tasks.end(), [](const auto &t) { return t.allowedModels.empty(); }));
    const auto constrained = readFragTasks(kFolder + "openb_pod_list_gpuspec33.csv");
    CHECK(std::count_if(constrained.begin(), constrained.end(),
                        [](const auto &t) { return !t.allowedModels.empty(); }) == 2388);
    const auto multi = readFragTasks(kFolder + "openb_pod_list_multigpu50.csv");
    REQUIRE(multi.size() == 9061);            // five columns only
    CHECK(multi.front().allowedModels.empty());
}

TEST_CASE("a pod's gpu_spec lists allowed models separated by bars")
{
    const auto tasks = parseFragTasks(kPodHeader + "p,1000,1024,1,500,V100M16|V100M32,LS,Running,0,10,0\n", "t.csv");
    REQUIRE(tasks.size() == 1);
    CHECK(tasks[0].allowedModels == std::vector<std::string>{"V100M16", "V100M32"});
}

TEST_CASE("a malformed line names the file, line and field, and nothing is returned")
{
    CHECK(errorOf([] { parseFragNodes(kNodeHeader + "a,1000,1024,2,T4\nb,abc,1024,2,T4\n", "n.csv"); })
          == "n.csv: line 3: field \"cpu_milli\": expected a whole number, got \"abc\"");
    CHECK(errorOf([] { parseFragNodes(kNodeHeader + "a,1000,1024,2,\n", "n.csv"); })
          == "n.csv: line 2: field \"model\": a node with GPUs needs its GPU model");
    CHECK(errorOf([] { parseFragNodes(kNodeHeader + "a,1000,1024,2\n", "n.csv"); })
          == "n.csv: line 2 has 4 values but the header names 5 columns");
    CHECK(errorOf([] { parseFragNodes("sn,cpu_milli,memory_mib,model\n", "n.csv"); })
          == "n.csv: line 1: missing column \"gpu\"; the header must have sn,cpu_milli,memory_mib,gpu,model");
    CHECK(errorOf([] { parseFragTasks(kPodHeader + "p,1000,1024,1,1500,,LS,Running,0,1,0\n", "t.csv"); })
          == "t.csv: line 2: field \"gpu_milli\": 1500 is outside 0..1000");
    CHECK(errorOf([] { parseFragTasks(kPodHeader + "p,1000,1024,0,500,,LS,Running,0,1,0\n", "t.csv"); })
          == "t.csv: line 2: field \"gpu_milli\": a task without GPUs must have gpu_milli 0, got 500");
    CHECK(errorOf([] { parseFragTasks(kPodHeader + "p,1000,-5,1,500,,LS,Running,0,1,0\n", "t.csv"); })
          == "t.csv: line 2: field \"memory_mib\": -5 is outside 0..9223372036854775807");
    CHECK(errorOf([] { parseFragTasks(kPodHeader + "p,1000,1024,1,500,T4||P100,LS,Running,0,1,0\n", "t.csv"); })
          == "t.csv: line 2: field \"gpu_spec\": empty GPU model in \"T4||P100\"");
}

TEST_CASE("empty files and missing files are errors")
{
    CHECK_THAT(errorOf([] { parseFragNodes("", "n.csv"); }), Contains("n.csv: no nodes"));
    CHECK_THAT(errorOf([] { parseFragTasks(kPodHeader, "t.csv"); }), Contains("t.csv: no tasks: the file has only a header"));
    CHECK_THAT(errorOf([] { readFragNodes("/nonexistent/nodes.csv"); }),
               Contains("Cannot read the node list file /nonexistent/nodes.csv"));
    CHECK(parseFragNodes(kNodeHeader + "\na,1000,1024,0,\n\n", "n.csv").size() == 1);  // blank lines skipped
}
