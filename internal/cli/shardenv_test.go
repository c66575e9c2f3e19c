package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestShardFromEnv reads each CI's shard variables into a 1-based K/N:
// GitLab's index is 1-based, CircleCI's, Buildkite's, Bazel's and a
// Kubernetes Indexed Job's 0-based; the flag wins over the environment;
// values out of range are usage errors naming the variables.
func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		name  string
		flag  string
		total int
		env   map[string]string
		want  string // "K/N", "" for no shard, "error" for a usage error
	}{
		{name: "nothing", want: ""},
		{name: "flag", flag: "2/4", want: "2/4"},
		{name: "flag over the CI", flag: "1/2", env: map[string]string{"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "4"}, want: "1/2"},
		{name: "flag zero-based by mistake", flag: "0/4", want: "error"},
		{name: "flag beyond the total", flag: "5/4", want: "error"},
		{name: "flag not K/N", flag: "2", want: "error"},
		{name: "GitLab, 1-based", env: map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"}, want: "1/3"},
		{name: "GitLab, last", env: map[string]string{"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"}, want: "3/3"},
		{name: "GitLab out of range", env: map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "3"}, want: "error"},
		{name: "CircleCI, 0-based", env: map[string]string{"CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"}, want: "1/2"},
		{name: "CircleCI, last", env: map[string]string{"CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"}, want: "2/2"},
		{name: "CircleCI beyond", env: map[string]string{"CIRCLE_NODE_INDEX": "2", "CIRCLE_NODE_TOTAL": "2"}, want: "error"},
		{name: "Buildkite, 0-based", env: map[string]string{"BUILDKITE_PARALLEL_JOB": "4", "BUILDKITE_PARALLEL_JOB_COUNT": "5"}, want: "5/5"},
		{name: "Buildkite not a number", env: map[string]string{"BUILDKITE_PARALLEL_JOB": "x", "BUILDKITE_PARALLEL_JOB_COUNT": "5"}, want: "error"},
		{name: "Bazel, 0-based", env: map[string]string{"TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "8"}, want: "1/8"},
		{name: "Bazel before GitLab", env: map[string]string{"TEST_SHARD_INDEX": "2", "TEST_TOTAL_SHARDS": "3", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"}, want: "3/3"},
		{name: "an index without its total", env: map[string]string{"CI_NODE_INDEX": "1"}, want: ""},
		{name: "Kubernetes Indexed Job", total: 4, env: map[string]string{"JOB_COMPLETION_INDEX": "3"}, want: "4/4"},
		{name: "Kubernetes without --shard-total", env: map[string]string{"JOB_COMPLETION_INDEX": "3"}, want: ""},
		{name: "--shard-total outside a Job", total: 4, want: "error"},
		{name: "--shard-total with --shard", flag: "1/2", total: 4, want: "error"},
		{name: "Kubernetes beyond the total", total: 2, env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, want: "error"},
	}
	for _, c := range cases {
		spec, ok, err := shardFromEnv(c.flag, c.total, func(k string) string { return c.env[k] })
		got := ""
		switch {
		case err != nil:
			got = "error"
			if !errors.Is(err, errUsage) {
				t.Errorf("%s: %v is not a usage error", c.name, err)
			}
		case ok:
			got = fmt.Sprintf("%d/%d", spec.K, spec.N)
		}
		if got != c.want {
			t.Errorf("%s: got %q (%v), want %q", c.name, got, err, c.want)
		}
	}
}

// TestBazelShardStatus: under Bazel's test sharding protocol the shard
// comes from TEST_SHARD_INDEX and TEST_TOTAL_SHARDS and the status file
// TEST_SHARD_STATUS_FILE is touched (created, or its time updated), which
// tells Bazel the test shards.
func TestBazelShardStatus(t *testing.T) {
	status := filepath.Join(t.TempDir(), "shard_status")
	env := map[string]string{"TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_STATUS_FILE": status}
	spec, ok, err := shardFromEnv("", 0, func(k string) string { return env[k] })
	if err != nil || !ok || spec.K != 2 || spec.N != 2 || spec.Status != status {
		t.Fatalf("got %+v %v %v", spec, ok, err)
	}
	if err := touchStatus(spec.Status); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(status); err != nil {
		t.Fatalf("the status file was not created: %v", err)
	}
	if err := touchStatus(""); err != nil {
		t.Errorf("no status file asked: %v", err)
	}
	if err := touchStatus(filepath.Join(status, "under-a-file")); err == nil {
		t.Error("a status file that cannot be made is not an error")
	}
}
