package sandbox

// GitPlanSize is the number of mounts the launcher's plan has for p and
// cwd, for BenchmarkGitPlanBeneathGrant.
func GitPlanSize(p Policy, cwd string) int { return len(mountPlan(p, cwd).mounts) }
