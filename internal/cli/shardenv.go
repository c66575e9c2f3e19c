package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// shardSpec is which shard of how many this machine runs: K is 1-based,
// as Jest's and Playwright's --shard; From names where it came from (the
// flag or a CI's variables); Status is Bazel's shard status file, which
// a sharded Bazel test touches.
type shardSpec struct {
	K, N   int
	From   string
	Status string
}

// parseShard reads K/N, 1 <= K <= N.
func parseShard(s string) (shardSpec, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return shardSpec{}, usageErr("--shard %q: give K/N with 1 <= K <= N (the first of four is 1/4)", s)
	}
	return shardSpec{K: k, N: n, From: "--shard"}, nil
}

// ciShard is one CI's pair of variables: the shard's index (zero-based
// unless oneBased) and the total.
type ciShard struct {
	name, index, total string
	oneBased           bool
}

// ciShards are the CIs whose variables say the shard, first match wins;
// Bazel's test sharding protocol comes first (a sharded Bazel test may
// run on any of these CIs).
var ciShards = []ciShard{
	{name: "Bazel", index: "TEST_SHARD_INDEX", total: "TEST_TOTAL_SHARDS"},
	{name: "GitLab CI", index: "CI_NODE_INDEX", total: "CI_NODE_TOTAL", oneBased: true},
	{name: "CircleCI", index: "CIRCLE_NODE_INDEX", total: "CIRCLE_NODE_TOTAL"},
	{name: "Buildkite", index: "BUILDKITE_PARALLEL_JOB", total: "BUILDKITE_PARALLEL_JOB_COUNT"},
}

// jobIndex is a Kubernetes Indexed Job's completion index (zero-based),
// whose total comes from --shard-total.
const jobIndex = "JOB_COMPLETION_INDEX"

// shardFromEnv returns the shard the flag or the environment names: the
// flag (K/N) when given, else the first CI of ciShards whose variables
// are set, else a Kubernetes Indexed Job's index with total (the
// --shard-total flag); ok is false when nothing names one. A variable
// that is not a number in range is a usage error naming it.
func shardFromEnv(flag string, total int, getenv func(string) string) (spec shardSpec, ok bool, err error) {
	if flag != "" {
		if total > 0 {
			return spec, false, usageErr("--shard-total goes with a Kubernetes Indexed Job's %s, not with --shard", jobIndex)
		}
		spec, err = parseShard(flag)
		return spec, err == nil, err
	}
	for _, c := range ciShards {
		is, ts := getenv(c.index), getenv(c.total)
		if is == "" || ts == "" {
			continue
		}
		k, n, err := ciNumbers(c, is, ts)
		if err != nil {
			return spec, false, err
		}
		spec = shardSpec{K: k, N: n, From: fmt.Sprintf("%s (%s=%s, %s=%s)", c.name, c.index, is, c.total, ts)}
		if c.name == "Bazel" {
			spec.Status = getenv("TEST_SHARD_STATUS_FILE")
		}
		return spec, true, nil
	}
	if total > 0 {
		is := getenv(jobIndex)
		if is == "" {
			return spec, false, usageErr("--shard-total %d: %s is not set (give --shard K/N outside a Kubernetes Indexed Job)", total, jobIndex)
		}
		k, n, err := ciNumbers(ciShard{name: "Kubernetes", index: jobIndex, total: "--shard-total"}, is, strconv.Itoa(total))
		if err != nil {
			return spec, false, err
		}
		return shardSpec{K: k, N: n, From: fmt.Sprintf("a Kubernetes Indexed Job (%s=%s, --shard-total %d)", jobIndex, is, total)}, true, nil
	}
	return spec, false, nil
}

// ciNumbers reads a CI's index and total into a 1-based K and N.
func ciNumbers(c ciShard, is, ts string) (k, n int, err error) {
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ts)
	if !c.oneBased {
		i++
	}
	if err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, usageErr("%s's shard is out of range: %s=%q, %s=%q", c.name, c.index, is, c.total, ts)
	}
	return i, n, nil
}

// touchStatus creates or updates Bazel's TEST_SHARD_STATUS_FILE: a test
// that shards touches it, so Bazel knows the shards are not each running
// everything.
func touchStatus(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("touch Bazel's TEST_SHARD_STATUS_FILE: %w", err)
	}
	return f.Close()
}
