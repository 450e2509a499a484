
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kssa' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kssa'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kssa' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply manifests to live-object snapshots and print the results with managedFields')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what applying manifests would change, as a diff per object')
            [CompletionResult]::new('conflicts', 'conflicts', [CompletionResultType]::ParameterValue, 'Explain the conflicts an apply would hit and how to resolve them')
            [CompletionResult]::new('managers', 'managers', [CompletionResultType]::ParameterValue, 'Show who owns what in live objects')
            [CompletionResult]::new('strip-managed', 'strip-managed', [CompletionResultType]::ParameterValue, 'Remove managedFields (and optionally server-set fields) from objects')
            [CompletionResult]::new('migrate-csa', 'migrate-csa', [CompletionResultType]::ParameterValue, 'Migrate client-side-apply ownership to server-side apply, as kubectl does')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Record a non-apply write (PUT or PATCH) by a field manager')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Run scenario files of applies and updates, checking expectations')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print kssa''s version and the Kubernetes versions it embeds')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kssa;apply' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file or directory to read; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file or directory to read; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Name of the field manager the apply is recorded under')
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--show-managed-fields', '--show-managed-fields', [CompletionResultType]::ParameterName, 'Keep metadata.managedFields in the printed objects')
            [CompletionResult]::new('--server-side', '--server-side', [CompletionResultType]::ParameterName, '`--server-side=false` is kubectl''s spelling of --client-side')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Client-side only: with `--overwrite=false`, a patch touching fields changed live since the last apply fails as a conflict (kubectl''s default is true)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories given with -f and --live recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories given with -f and --live recursively')
            [CompletionResult]::new('--strict-schemas', '--strict-schemas', [CompletionResultType]::ParameterName, 'Refuse kinds no schema describes instead of using the deduced schema')
            [CompletionResult]::new('--skip-non-objects', '--skip-non-objects', [CompletionResultType]::ParameterName, 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)')
            [CompletionResult]::new('--force-conflicts', '--force-conflicts', [CompletionResultType]::ParameterName, 'Take conflicting fields over from their other managers')
            [CompletionResult]::new('--normalize-unions', '--normalize-unions', [CompletionResultType]::ParameterName, 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)')
            [CompletionResult]::new('--no-defaults', '--no-defaults', [CompletionResultType]::ParameterName, 'Show the raw merge: no typed round trip, no built-in or CRD defaults')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Update the live snapshot files in place; new objects go into the first --live directory')
            [CompletionResult]::new('--client-side', '--client-side', [CompletionResultType]::ParameterName, 'Predict `kubectl apply` without `--server-side`: a three-way patch from the last-applied annotation, recorded as an Update by kubectl-client-side-apply')
            [CompletionResult]::new('--show-patch', '--show-patch', [CompletionResultType]::ParameterName, 'Client-side only: show the request kubectl sends (POST, or the PATCH body and type)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;diff' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file or directory to read; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file or directory to read; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Name of the field manager the apply is recorded under')
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'With --prune: objects matching this label selector (`app=web,tier!=db`) are in scope')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'With --prune: objects matching this label selector (`app=web,tier!=db`) are in scope')
            [CompletionResult]::new('--applyset', '--applyset', [CompletionResultType]::ParameterName, 'With --prune: the ApplySet parent, `[RESOURCE][.GROUP]/NAME` (a Secret by default) in the -n namespace; its members are in scope and applied objects join it')
            [CompletionResult]::new('--prune-allowlist', '--prune-allowlist', [CompletionResultType]::ParameterName, 'With -l: the kinds in scope, as `group/version/kind` (`core/v1/ConfigMap`); repeatable. Default: kubectl''s list')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Ignore rules: an Argo CD Application (`spec.ignoreDifferences`), the argocd-cm ConfigMap (`resource.customizations.ignoreDifferences.*`) or a Flux HelmRelease (`spec.driftDetection.ignore`). Repeatable')
            [CompletionResult]::new('--server-side', '--server-side', [CompletionResultType]::ParameterName, '`--server-side=false` is kubectl''s spelling of --client-side')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Client-side only: with `--overwrite=false`, a patch touching fields changed live since the last apply fails as a conflict (kubectl''s default is true)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories given with -f and --live recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories given with -f and --live recursively')
            [CompletionResult]::new('--strict-schemas', '--strict-schemas', [CompletionResultType]::ParameterName, 'Refuse kinds no schema describes instead of using the deduced schema')
            [CompletionResult]::new('--skip-non-objects', '--skip-non-objects', [CompletionResultType]::ParameterName, 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)')
            [CompletionResult]::new('--force-conflicts', '--force-conflicts', [CompletionResultType]::ParameterName, 'Take conflicting fields over from their other managers')
            [CompletionResult]::new('--normalize-unions', '--normalize-unions', [CompletionResultType]::ParameterName, 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)')
            [CompletionResult]::new('--no-defaults', '--no-defaults', [CompletionResultType]::ParameterName, 'Show the raw merge: no typed round trip, no built-in or CRD defaults')
            [CompletionResult]::new('--show-managed-fields', '--show-managed-fields', [CompletionResultType]::ParameterName, 'Include metadata.managedFields in the diff')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show Secret values instead of masking them')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Also delete live objects that no manifest applies any more (kubectl''s `--prune`); needs -l or --applyset')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 1 when anything would change or conflict (the default, as `kubectl diff`)')
            [CompletionResult]::new('--no-exit-code', '--no-exit-code', [CompletionResultType]::ParameterName, 'Exit 0 even when something would change or conflict; errors still exit 2')
            [CompletionResult]::new('--client-side', '--client-side', [CompletionResultType]::ParameterName, 'Predict `kubectl apply` without `--server-side`: a three-way patch from the last-applied annotation, recorded as an Update by kubectl-client-side-apply')
            [CompletionResult]::new('--show-patch', '--show-patch', [CompletionResultType]::ParameterName, 'Client-side only: show the request kubectl sends (POST, or the PATCH body and type)')
            [CompletionResult]::new('--compare-modes', '--compare-modes', [CompletionResultType]::ParameterName, 'Show, per object, where client-side and server-side apply of the manifest end differently (pruned or kept fields, silent overwrites versus conflicts, lists)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;conflicts' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifest file or directory to read; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifest file or directory to read; `-` reads stdin. Repeatable')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Name of the field manager the apply is recorded under')
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories given with -f and --live recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories given with -f and --live recursively')
            [CompletionResult]::new('--strict-schemas', '--strict-schemas', [CompletionResultType]::ParameterName, 'Refuse kinds no schema describes instead of using the deduced schema')
            [CompletionResult]::new('--skip-non-objects', '--skip-non-objects', [CompletionResultType]::ParameterName, 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)')
            [CompletionResult]::new('--force-conflicts', '--force-conflicts', [CompletionResultType]::ParameterName, 'Take conflicting fields over from their other managers')
            [CompletionResult]::new('--normalize-unions', '--normalize-unions', [CompletionResultType]::ParameterName, 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)')
            [CompletionResult]::new('--no-defaults', '--no-defaults', [CompletionResultType]::ParameterName, 'Show the raw merge: no typed round trip, no built-in or CRD defaults')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show Secret `data`/`stringData` values instead of `***`')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 1 when anything would change or conflict (the default, as `kubectl diff`)')
            [CompletionResult]::new('--no-exit-code', '--no-exit-code', [CompletionResultType]::ParameterName, 'Exit 0 even when something would change or conflict; errors still exit 2')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;managers' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifests to apply to the live objects first: show the predicted result''s managers')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifests to apply to the live objects first: show the predicted result''s managers')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'More live objects (same as the positional arguments)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'CRD, OpenAPI or SMD schema YAML (for --extract and -f). Repeatable')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for namespaced manifests that name none (default: `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for namespaced manifests that name none (default: `default`)')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Name of the field manager the apply is recorded under')
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them')
            [CompletionResult]::new('--manager', '--manager', [CompletionResultType]::ParameterName, 'Only this manager (for --extract and --fields)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories recursively')
            [CompletionResult]::new('--skip-non-objects', '--skip-non-objects', [CompletionResultType]::ParameterName, 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)')
            [CompletionResult]::new('--force-conflicts', '--force-conflicts', [CompletionResultType]::ParameterName, 'Take conflicting fields over from their other managers')
            [CompletionResult]::new('--normalize-unions', '--normalize-unions', [CompletionResultType]::ParameterName, 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)')
            [CompletionResult]::new('--no-defaults', '--no-defaults', [CompletionResultType]::ParameterName, 'Show the raw merge: no typed round trip, no built-in or CRD defaults')
            [CompletionResult]::new('--blame', '--blame', [CompletionResultType]::ParameterName, 'Print the object as YAML with each line''s owners')
            [CompletionResult]::new('--extract', '--extract', [CompletionResultType]::ParameterName, 'The fields --manager owns, as an applyable manifest (client-go''s Extract)')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'The owned field paths, one per line')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;strip-managed' {
            [CompletionResult]::new('--manager', '--manager', [CompletionResultType]::ParameterName, 'Remove only this manager''s entries. Repeatable')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories recursively')
            [CompletionResult]::new('--skip-non-objects', '--skip-non-objects', [CompletionResultType]::ParameterName, 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)')
            [CompletionResult]::new('--in-place', '--in-place', [CompletionResultType]::ParameterName, 'Rewrite the files (atomically) instead of printing')
            [CompletionResult]::new('--server-fields', '--server-fields', [CompletionResultType]::ParameterName, 'Also drop what the server fills in: resourceVersion, uid, creationTimestamp, generation, selfLink, status and the last-applied annotation. The object is first decoded as the API server reads it (typed round trip and defaults), so an old snapshot becomes what `kubectl get` shows today')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, 'Match --manager names as prefixes')
            [CompletionResult]::new('--neat', '--neat', [CompletionResultType]::ParameterName, 'Also drop values only the server''s defaulting put there and no Apply manager owns, as kubectl-neat does (implies --server-fields; built-in kinds only)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;migrate-csa' {
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'More live snapshots (same as the positional arguments)')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Update managers to migrate. Repeatable; `--from=` migrates none. Default: kubectl-client-side-apply and every Update manager owning the last-applied annotation')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The Apply manager taking the fields over')
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'Migrate the entries of this subresource (default: the main resource)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Manifests the next server-side apply sends: show its diff after the migration')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Manifests the next server-side apply sends: show its diff after the migration')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'CRD, OpenAPI or SMD schema YAML. Repeatable')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Time recorded by the apply after migration (RFC 3339)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output: the report, or the migrated objects')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output: the report, or the migrated objects')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read directories recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read directories recursively')
            [CompletionResult]::new('--skip-non-objects', '--skip-non-objects', [CompletionResultType]::ParameterName, 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Update the snapshot files in place (atomically)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;update' {
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'The live snapshot holding the object (file, or `-` for stdin)')
            [CompletionResult]::new('--object', '--object', [CompletionResultType]::ParameterName, 'The full new object (a PUT)')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'A patch to the live object (a PATCH), JSON or YAML')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'The patch type')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Name of the field manager the update is recorded under')
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'Write to this subresource (e.g. `status`, `scale`)')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'CRD, OpenAPI or SMD schema YAML. Repeatable')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults')
            [CompletionResult]::new('--validate', '--validate', [CompletionResultType]::ParameterName, 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--normalize-unions', '--normalize-unions', [CompletionResultType]::ParameterName, 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)')
            [CompletionResult]::new('--no-defaults', '--no-defaults', [CompletionResultType]::ParameterName, 'Show the raw merge: no typed round trip, no built-in or CRD defaults')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;replay' {
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Schema documents to add to the built-in kinds (CRDs, OpenAPI documents, SMD schema YAML)')
            [CompletionResult]::new('--kube-version', '--kube-version', [CompletionResultType]::ParameterName, 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON report per run instead of text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;man' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;version' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kssa;help' {
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply manifests to live-object snapshots and print the results with managedFields')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Show what applying manifests would change, as a diff per object')
            [CompletionResult]::new('conflicts', 'conflicts', [CompletionResultType]::ParameterValue, 'Explain the conflicts an apply would hit and how to resolve them')
            [CompletionResult]::new('managers', 'managers', [CompletionResultType]::ParameterValue, 'Show who owns what in live objects')
            [CompletionResult]::new('strip-managed', 'strip-managed', [CompletionResultType]::ParameterValue, 'Remove managedFields (and optionally server-set fields) from objects')
            [CompletionResult]::new('migrate-csa', 'migrate-csa', [CompletionResultType]::ParameterValue, 'Migrate client-side-apply ownership to server-side apply, as kubectl does')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Record a non-apply write (PUT or PATCH) by a field manager')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Run scenario files of applies and updates, checking expectations')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff)')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print kssa''s version and the Kubernetes versions it embeds')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kssa;help;apply' {
            break
        }
        'kssa;help;diff' {
            break
        }
        'kssa;help;conflicts' {
            break
        }
        'kssa;help;managers' {
            break
        }
        'kssa;help;strip-managed' {
            break
        }
        'kssa;help;migrate-csa' {
            break
        }
        'kssa;help;update' {
            break
        }
        'kssa;help;replay' {
            break
        }
        'kssa;help;completions' {
            break
        }
        'kssa;help;man' {
            break
        }
        'kssa;help;version' {
            break
        }
        'kssa;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
