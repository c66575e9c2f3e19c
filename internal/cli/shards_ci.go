package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// ciSnippets are the job definitions `testdex shards N --ci CI` prints,
// with N for {{N}} and the list 1..N for {{LIST}}. Each saves its shard's
// stream even when tests fail, for `testdex merge`.
var ciSnippets = map[string]string{
	"github": `# GitHub Actions has no shard variables: a matrix names each shard.
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        shard: [{{LIST}}]
    steps:
      - uses: actions/checkout@v4
      - run: testdex run --shard ${{ matrix.shard }}/{{N}} --json > shard-${{ matrix.shard }}.jsonl
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: shard-${{ matrix.shard }}
          path: shard-${{ matrix.shard }}.jsonl
`,
	"gitlab": `# GitLab sets CI_NODE_INDEX and CI_NODE_TOTAL: testdex reads them.
test:
  parallel: {{N}}
  script:
    - testdex run --json > shard-$CI_NODE_INDEX.jsonl
  artifacts:
    when: always
    paths: [shard-*.jsonl]
`,
	"buildkite": `# Buildkite sets BUILDKITE_PARALLEL_JOB and BUILDKITE_PARALLEL_JOB_COUNT: testdex reads them.
steps:
  - label: test
    parallelism: {{N}}
    command: testdex run --json > shard-$BUILDKITE_PARALLEL_JOB.jsonl
    artifact_paths: shard-*.jsonl
`,
	"circleci": `# CircleCI sets CIRCLE_NODE_INDEX and CIRCLE_NODE_TOTAL: testdex reads them.
jobs:
  test:
    parallelism: {{N}}
    steps:
      - checkout
      - run: testdex run --json > shard-$CIRCLE_NODE_INDEX.jsonl
      - store_artifacts:
          path: shard-$CIRCLE_NODE_INDEX.jsonl
          when: always
`,
}

// newShardsCmd is `testdex shards N --ci CI`: the CI's job definition
// that runs N shards.
func newShardsCmd(env *Env, _ *globals) *cobra.Command {
	var ci string
	cmd := &cobra.Command{
		Use:   "shards N --ci github|gitlab|buildkite|circleci",
		Short: "Print the CI job definition that runs the tests in N shards",
		Long: `Shards prints the part of a CI's configuration that runs 'testdex run'
in N parallel jobs, each its own shard, each keeping its '--json' stream
for 'testdex merge' (docs/ci.md shows whole workflows). GitLab, Buildkite
and CircleCI say each job's shard in variables testdex reads; GitHub
Actions has none, so its matrix passes --shard K/N.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 1 {
				return usageErr("shards %q: give the number of shards, at least 1", args[0])
			}
			snippet, ok := ciSnippets[ci]
			if !ok {
				return usageErr("--ci %q: give github, gitlab, buildkite or circleci", ci)
			}
			list := make([]string, n)
			for i := range list {
				list[i] = strconv.Itoa(i + 1)
			}
			snippet = strings.ReplaceAll(snippet, "{{LIST}}", strings.Join(list, ", "))
			fmt.Fprint(env.Stdout, strings.ReplaceAll(snippet, "{{N}}", strconv.Itoa(n)))
			return nil
		},
	}
	cmd.Flags().StringVar(&ci, "ci", "", "the CI: github, gitlab, buildkite or circleci")
	return cmd
}
