# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kssa_global_optspecs
    string join \n color= h/help V/version
end

function __fish_kssa_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kssa_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kssa_using_subcommand
    set -l cmd (__fish_kssa_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kssa -n "__fish_kssa_needs_command" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_needs_command" -s h -l help -d 'Print help'
complete -c kssa -n "__fish_kssa_needs_command" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "apply" -d 'Apply manifests to live-object snapshots and print the results with managedFields'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "diff" -d 'Show what applying manifests would change, as a diff per object'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "conflicts" -d 'Explain the conflicts an apply would hit and how to resolve them'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "managers" -d 'Show who owns what in live objects'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "strip-managed" -d 'Remove managedFields (and optionally server-set fields) from objects'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "migrate-csa" -d 'Migrate client-side-apply ownership to server-side apply, as kubectl does'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "update" -d 'Record a non-apply write (PUT or PATCH) by a field manager'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "replay" -d 'Run scenario files of applies and updates, checking expectations'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "man" -d 'Print the man page (roff)'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "version" -d 'Print kssa\'s version and the Kubernetes versions it embeds'
complete -c kssa -n "__fish_kssa_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -s f -l filename -d 'Manifest file or directory to read; `-` reads stdin. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l live -d 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l schema -d 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand apply" -s n -l namespace -d 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does' -r
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l kube-version -d 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults' -r
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l field-manager -d 'Name of the field manager the apply is recorded under' -r
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l subresource -d 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource' -r
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l now -d 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock' -r
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l validate -d 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them' -r
complete -c kssa -n "__fish_kssa_using_subcommand apply" -s o -l output -d 'Output format' -r -f -a "yaml\t''
json\t''
name\t''
sarif\t'SARIF 2.1.0 findings instead of the objects, for code scanning'
junit\t'JUnit XML, a test case per object, instead of the objects'"
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l show-managed-fields -d 'Keep metadata.managedFields in the printed objects' -r -f -a "true\t''
false\t''"
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l server-side -d '`--server-side=false` is kubectl\'s spelling of --client-side' -r -f -a "true\t''
false\t''"
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l overwrite -d 'Client-side only: with `--overwrite=false`, a patch touching fields changed live since the last apply fails as a conflict (kubectl\'s default is true)' -r -f -a "true\t''
false\t''"
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand apply" -s R -l recursive -d 'Read directories given with -f and --live recursively'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l strict-schemas -d 'Refuse kinds no schema describes instead of using the deduced schema'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l skip-non-objects -d 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l force-conflicts -d 'Take conflicting fields over from their other managers'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l normalize-unions -d 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l no-defaults -d 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l write -d 'Update the live snapshot files in place; new objects go into the first --live directory'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l client-side -d 'Predict `kubectl apply` without `--server-side`: a three-way patch from the last-applied annotation, recorded as an Update by kubectl-client-side-apply'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -l show-patch -d 'Client-side only: show the request kubectl sends (POST, or the PATCH body and type)'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kssa -n "__fish_kssa_using_subcommand apply" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -s f -l filename -d 'Manifest file or directory to read; `-` reads stdin. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l live -d 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l schema -d 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand diff" -s n -l namespace -d 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l kube-version -d 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l field-manager -d 'Name of the field manager the apply is recorded under' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l subresource -d 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l now -d 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l validate -d 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -s o -l output -d 'Output format' -r -f -a "unified\t'Unified diffs, then a summary line on stderr'
json\t'A machine-readable change set'
github\t'GitHub Actions workflow annotations'
sarif\t'SARIF 2.1.0, for code scanning (GitHub shows each conflict at its field)'
junit\t'JUnit XML, a test case per object, for CI test reports'"
complete -c kssa -n "__fish_kssa_using_subcommand diff" -s l -l selector -d 'With --prune: objects matching this label selector (`app=web,tier!=db`) are in scope' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l applyset -d 'With --prune: the ApplySet parent, `[RESOURCE][.GROUP]/NAME` (a Secret by default) in the -n namespace; its members are in scope and applied objects join it' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l prune-allowlist -d 'With -l: the kinds in scope, as `group/version/kind` (`core/v1/ConfigMap`); repeatable. Default: kubectl\'s list' -r
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l ignore -d 'Ignore rules: an Argo CD Application (`spec.ignoreDifferences`), the argocd-cm ConfigMap (`resource.customizations.ignoreDifferences.*`) or a Flux HelmRelease (`spec.driftDetection.ignore`). Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l server-side -d '`--server-side=false` is kubectl\'s spelling of --client-side' -r -f -a "true\t''
false\t''"
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l overwrite -d 'Client-side only: with `--overwrite=false`, a patch touching fields changed live since the last apply fails as a conflict (kubectl\'s default is true)' -r -f -a "true\t''
false\t''"
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand diff" -s R -l recursive -d 'Read directories given with -f and --live recursively'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l strict-schemas -d 'Refuse kinds no schema describes instead of using the deduced schema'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l skip-non-objects -d 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l force-conflicts -d 'Take conflicting fields over from their other managers'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l normalize-unions -d 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l no-defaults -d 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l show-managed-fields -d 'Include metadata.managedFields in the diff'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l show-secrets -d 'Show Secret values instead of masking them'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l prune -d 'Also delete live objects that no manifest applies any more (kubectl\'s `--prune`); needs -l or --applyset'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l exit-code -d 'Exit 1 when anything would change or conflict (the default, as `kubectl diff`)'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l no-exit-code -d 'Exit 0 even when something would change or conflict; errors still exit 2'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l client-side -d 'Predict `kubectl apply` without `--server-side`: a three-way patch from the last-applied annotation, recorded as an Update by kubectl-client-side-apply'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l show-patch -d 'Client-side only: show the request kubectl sends (POST, or the PATCH body and type)'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -l compare-modes -d 'Show, per object, where client-side and server-side apply of the manifest end differently (pruned or kept fields, silent overwrites versus conflicts, lists)'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kssa -n "__fish_kssa_using_subcommand diff" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -s f -l filename -d 'Manifest file or directory to read; `-` reads stdin. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l live -d 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l schema -d 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -s n -l namespace -d 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does' -r
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l kube-version -d 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults' -r
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l field-manager -d 'Name of the field manager the apply is recorded under' -r
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l subresource -d 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource' -r
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l now -d 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock' -r
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l validate -d 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them' -r
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -s o -l output -d 'Output format' -r -f -a "text\t''
json\t''
sarif\t'SARIF 2.1.0, for code scanning (GitHub shows each conflict at its field)'
junit\t'JUnit XML, a test case per object, for CI test reports'"
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -s R -l recursive -d 'Read directories given with -f and --live recursively'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l strict-schemas -d 'Refuse kinds no schema describes instead of using the deduced schema'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l skip-non-objects -d 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l force-conflicts -d 'Take conflicting fields over from their other managers'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l normalize-unions -d 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l no-defaults -d 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l show-secrets -d 'Show Secret `data`/`stringData` values instead of `***`'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l exit-code -d 'Exit 1 when anything would change or conflict (the default, as `kubectl diff`)'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -l no-exit-code -d 'Exit 0 even when something would change or conflict; errors still exit 2'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kssa -n "__fish_kssa_using_subcommand conflicts" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -s f -l filename -d 'Manifests to apply to the live objects first: show the predicted result\'s managers' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l live -d 'More live objects (same as the positional arguments)' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l schema -d 'CRD, OpenAPI or SMD schema YAML (for --extract and -f). Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand managers" -s n -l namespace -d 'Namespace for namespaced manifests that name none (default: `default`)' -r
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l field-manager -d 'Name of the field manager the apply is recorded under' -r
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l subresource -d 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource' -r
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l now -d 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock' -r
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l validate -d 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them' -r
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l manager -d 'Only this manager (for --extract and --fields)' -r
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l kube-version -d 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults' -r
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand managers" -s R -l recursive -d 'Read directories recursively'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l skip-non-objects -d 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l force-conflicts -d 'Take conflicting fields over from their other managers'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l normalize-unions -d 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l no-defaults -d 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l blame -d 'Print the object as YAML with each line\'s owners'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l extract -d 'The fields --manager owns, as an applyable manifest (client-go\'s Extract)'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -l fields -d 'The owned field paths, one per line'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -s h -l help -d 'Print help'
complete -c kssa -n "__fish_kssa_using_subcommand managers" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -l manager -d 'Remove only this manager\'s entries. Repeatable' -r
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -s R -l recursive -d 'Read directories recursively'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -l skip-non-objects -d 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -l in-place -d 'Rewrite the files (atomically) instead of printing'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -l server-fields -d 'Also drop what the server fills in: resourceVersion, uid, creationTimestamp, generation, selfLink, status and the last-applied annotation. The object is first decoded as the API server reads it (typed round trip and defaults), so an old snapshot becomes what `kubectl get` shows today'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -l prefix -d 'Match --manager names as prefixes'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -l neat -d 'Also drop values only the server\'s defaulting put there and no Apply manager owns, as kubectl-neat does (implies --server-fields; built-in kinds only)'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -s h -l help -d 'Print help'
complete -c kssa -n "__fish_kssa_using_subcommand strip-managed" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l live -d 'More live snapshots (same as the positional arguments)' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l from -d 'Update managers to migrate. Repeatable; `--from=` migrates none. Default: kubectl-client-side-apply and every Update manager owning the last-applied annotation' -r
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l to -d 'The Apply manager taking the fields over' -r
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l subresource -d 'Migrate the entries of this subresource (default: the main resource)' -r
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -s f -l filename -d 'Manifests the next server-side apply sends: show its diff after the migration' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l schema -d 'CRD, OpenAPI or SMD schema YAML. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l now -d 'Time recorded by the apply after migration (RFC 3339)' -r
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -s o -l output -d 'Output: the report, or the migrated objects' -r -f -a "report\t'What the migration changes'
yaml\t'The migrated objects as YAML'
json\t'The migrated objects as JSON'"
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l kube-version -d 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults' -r
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -s R -l recursive -d 'Read directories recursively'
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l skip-non-objects -d 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)'
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -l write -d 'Update the snapshot files in place (atomically)'
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kssa -n "__fish_kssa_using_subcommand migrate-csa" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand update" -l live -d 'The live snapshot holding the object (file, or `-` for stdin)' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand update" -l object -d 'The full new object (a PUT)' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand update" -l patch -d 'A patch to the live object (a PATCH), JSON or YAML' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand update" -l type -d 'The patch type' -r -f -a "strategic\t'Strategic merge patch (built-in kinds only)'
merge\t'JSON merge patch (RFC 7386)'
json\t'JSON patch (RFC 6902)'"
complete -c kssa -n "__fish_kssa_using_subcommand update" -l field-manager -d 'Name of the field manager the update is recorded under' -r
complete -c kssa -n "__fish_kssa_using_subcommand update" -l subresource -d 'Write to this subresource (e.g. `status`, `scale`)' -r
complete -c kssa -n "__fish_kssa_using_subcommand update" -l schema -d 'CRD, OpenAPI or SMD schema YAML. Repeatable' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand update" -l now -d 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock' -r
complete -c kssa -n "__fish_kssa_using_subcommand update" -s o -l output -d 'Output format' -r -f -a "yaml\t''
json\t''
name\t''"
complete -c kssa -n "__fish_kssa_using_subcommand update" -l kube-version -d 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults' -r
complete -c kssa -n "__fish_kssa_using_subcommand update" -l validate -d 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them' -r
complete -c kssa -n "__fish_kssa_using_subcommand update" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand update" -l normalize-unions -d 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
complete -c kssa -n "__fish_kssa_using_subcommand update" -l no-defaults -d 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
complete -c kssa -n "__fish_kssa_using_subcommand update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kssa -n "__fish_kssa_using_subcommand update" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand replay" -l schema -d 'Schema documents to add to the built-in kinds (CRDs, OpenAPI documents, SMD schema YAML)' -r -F
complete -c kssa -n "__fish_kssa_using_subcommand replay" -l kube-version -d 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults' -r
complete -c kssa -n "__fish_kssa_using_subcommand replay" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand replay" -l json -d 'Print one JSON report per run instead of text'
complete -c kssa -n "__fish_kssa_using_subcommand replay" -s h -l help -d 'Print help'
complete -c kssa -n "__fish_kssa_using_subcommand replay" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand completions" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand completions" -s h -l help -d 'Print help'
complete -c kssa -n "__fish_kssa_using_subcommand completions" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand man" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand man" -s h -l help -d 'Print help'
complete -c kssa -n "__fish_kssa_using_subcommand man" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand version" -l color -d 'When to colour output: `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kssa -n "__fish_kssa_using_subcommand version" -s h -l help -d 'Print help'
complete -c kssa -n "__fish_kssa_using_subcommand version" -s V -l version -d 'Print version'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "apply" -d 'Apply manifests to live-object snapshots and print the results with managedFields'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "diff" -d 'Show what applying manifests would change, as a diff per object'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "conflicts" -d 'Explain the conflicts an apply would hit and how to resolve them'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "managers" -d 'Show who owns what in live objects'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "strip-managed" -d 'Remove managedFields (and optionally server-set fields) from objects'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "migrate-csa" -d 'Migrate client-side-apply ownership to server-side apply, as kubectl does'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "update" -d 'Record a non-apply write (PUT or PATCH) by a field manager'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "replay" -d 'Run scenario files of applies and updates, checking expectations'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "completions" -d 'Print a shell completion script'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "man" -d 'Print the man page (roff)'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "version" -d 'Print kssa\'s version and the Kubernetes versions it embeds'
complete -c kssa -n "__fish_kssa_using_subcommand help; and not __fish_seen_subcommand_from apply diff conflicts managers strip-managed migrate-csa update replay completions man version help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
