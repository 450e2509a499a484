
use builtin;
use str;

set edit:completion:arg-completer[kssa] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'kssa'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'kssa'= {
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand apply 'Apply manifests to live-object snapshots and print the results with managedFields'
            cand diff 'Show what applying manifests would change, as a diff per object'
            cand conflicts 'Explain the conflicts an apply would hit and how to resolve them'
            cand managers 'Show who owns what in live objects'
            cand strip-managed 'Remove managedFields (and optionally server-set fields) from objects'
            cand migrate-csa 'Migrate client-side-apply ownership to server-side apply, as kubectl does'
            cand update 'Record a non-apply write (PUT or PATCH) by a field manager'
            cand replay 'Run scenario files of applies and updates, checking expectations'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page (roff)'
            cand version 'Print kssa''s version and the Kubernetes versions it embeds'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kssa;apply'= {
            cand -f 'Manifest file or directory to read; `-` reads stdin. Repeatable'
            cand --filename 'Manifest file or directory to read; `-` reads stdin. Repeatable'
            cand --live 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable'
            cand --schema 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable'
            cand -n 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does'
            cand --namespace 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does'
            cand --kube-version 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults'
            cand --field-manager 'Name of the field manager the apply is recorded under'
            cand --subresource 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource'
            cand --now 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock'
            cand --validate 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --show-managed-fields 'Keep metadata.managedFields in the printed objects'
            cand --server-side '`--server-side=false` is kubectl''s spelling of --client-side'
            cand --overwrite 'Client-side only: with `--overwrite=false`, a patch touching fields changed live since the last apply fails as a conflict (kubectl''s default is true)'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -R 'Read directories given with -f and --live recursively'
            cand --recursive 'Read directories given with -f and --live recursively'
            cand --strict-schemas 'Refuse kinds no schema describes instead of using the deduced schema'
            cand --skip-non-objects 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)'
            cand --force-conflicts 'Take conflicting fields over from their other managers'
            cand --normalize-unions 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
            cand --no-defaults 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
            cand --write 'Update the live snapshot files in place; new objects go into the first --live directory'
            cand --client-side 'Predict `kubectl apply` without `--server-side`: a three-way patch from the last-applied annotation, recorded as an Update by kubectl-client-side-apply'
            cand --show-patch 'Client-side only: show the request kubectl sends (POST, or the PATCH body and type)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;diff'= {
            cand -f 'Manifest file or directory to read; `-` reads stdin. Repeatable'
            cand --filename 'Manifest file or directory to read; `-` reads stdin. Repeatable'
            cand --live 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable'
            cand --schema 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable'
            cand -n 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does'
            cand --namespace 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does'
            cand --kube-version 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults'
            cand --field-manager 'Name of the field manager the apply is recorded under'
            cand --subresource 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource'
            cand --now 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock'
            cand --validate 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -l 'With --prune: objects matching this label selector (`app=web,tier!=db`) are in scope'
            cand --selector 'With --prune: objects matching this label selector (`app=web,tier!=db`) are in scope'
            cand --applyset 'With --prune: the ApplySet parent, `[RESOURCE][.GROUP]/NAME` (a Secret by default) in the -n namespace; its members are in scope and applied objects join it'
            cand --prune-allowlist 'With -l: the kinds in scope, as `group/version/kind` (`core/v1/ConfigMap`); repeatable. Default: kubectl''s list'
            cand --ignore 'Ignore rules: an Argo CD Application (`spec.ignoreDifferences`), the argocd-cm ConfigMap (`resource.customizations.ignoreDifferences.*`) or a Flux HelmRelease (`spec.driftDetection.ignore`). Repeatable'
            cand --server-side '`--server-side=false` is kubectl''s spelling of --client-side'
            cand --overwrite 'Client-side only: with `--overwrite=false`, a patch touching fields changed live since the last apply fails as a conflict (kubectl''s default is true)'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -R 'Read directories given with -f and --live recursively'
            cand --recursive 'Read directories given with -f and --live recursively'
            cand --strict-schemas 'Refuse kinds no schema describes instead of using the deduced schema'
            cand --skip-non-objects 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)'
            cand --force-conflicts 'Take conflicting fields over from their other managers'
            cand --normalize-unions 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
            cand --no-defaults 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
            cand --show-managed-fields 'Include metadata.managedFields in the diff'
            cand --show-secrets 'Show Secret values instead of masking them'
            cand --prune 'Also delete live objects that no manifest applies any more (kubectl''s `--prune`); needs -l or --applyset'
            cand --exit-code 'Exit 1 when anything would change or conflict (the default, as `kubectl diff`)'
            cand --no-exit-code 'Exit 0 even when something would change or conflict; errors still exit 2'
            cand --client-side 'Predict `kubectl apply` without `--server-side`: a three-way patch from the last-applied annotation, recorded as an Update by kubectl-client-side-apply'
            cand --show-patch 'Client-side only: show the request kubectl sends (POST, or the PATCH body and type)'
            cand --compare-modes 'Show, per object, where client-side and server-side apply of the manifest end differently (pruned or kept fields, silent overwrites versus conflicts, lists)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;conflicts'= {
            cand -f 'Manifest file or directory to read; `-` reads stdin. Repeatable'
            cand --filename 'Manifest file or directory to read; `-` reads stdin. Repeatable'
            cand --live 'Live-object snapshot (`kubectl get -o yaml --show-managed-fields`): a file or a directory. Repeatable'
            cand --schema 'CRD, OpenAPI or SMD schema YAML, a file or a directory. Repeatable'
            cand -n 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does'
            cand --namespace 'Namespace for namespaced objects that name none (default: `default`). Given explicitly, a namespaced manifest naming another namespace is refused, as kubectl does'
            cand --kube-version 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults'
            cand --field-manager 'Name of the field manager the apply is recorded under'
            cand --subresource 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource'
            cand --now 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock'
            cand --validate 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -R 'Read directories given with -f and --live recursively'
            cand --recursive 'Read directories given with -f and --live recursively'
            cand --strict-schemas 'Refuse kinds no schema describes instead of using the deduced schema'
            cand --skip-non-objects 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind), with a notice, instead of failing on them (kustomization and Helm chart files are always skipped)'
            cand --force-conflicts 'Take conflicting fields over from their other managers'
            cand --normalize-unions 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
            cand --no-defaults 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
            cand --show-secrets 'Show Secret `data`/`stringData` values instead of `***`'
            cand --exit-code 'Exit 1 when anything would change or conflict (the default, as `kubectl diff`)'
            cand --no-exit-code 'Exit 0 even when something would change or conflict; errors still exit 2'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;managers'= {
            cand -f 'Manifests to apply to the live objects first: show the predicted result''s managers'
            cand --filename 'Manifests to apply to the live objects first: show the predicted result''s managers'
            cand --live 'More live objects (same as the positional arguments)'
            cand --schema 'CRD, OpenAPI or SMD schema YAML (for --extract and -f). Repeatable'
            cand -n 'Namespace for namespaced manifests that name none (default: `default`)'
            cand --namespace 'Namespace for namespaced manifests that name none (default: `default`)'
            cand --field-manager 'Name of the field manager the apply is recorded under'
            cand --subresource 'Apply to this subresource (e.g. `status`, `scale`) instead of the main resource'
            cand --now 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock'
            cand --validate 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them'
            cand --manager 'Only this manager (for --extract and --fields)'
            cand --kube-version 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -R 'Read directories recursively'
            cand --recursive 'Read directories recursively'
            cand --skip-non-objects 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)'
            cand --force-conflicts 'Take conflicting fields over from their other managers'
            cand --normalize-unions 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
            cand --no-defaults 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
            cand --blame 'Print the object as YAML with each line''s owners'
            cand --extract 'The fields --manager owns, as an applyable manifest (client-go''s Extract)'
            cand --fields 'The owned field paths, one per line'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;strip-managed'= {
            cand --manager 'Remove only this manager''s entries. Repeatable'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -R 'Read directories recursively'
            cand --recursive 'Read directories recursively'
            cand --skip-non-objects 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)'
            cand --in-place 'Rewrite the files (atomically) instead of printing'
            cand --server-fields 'Also drop what the server fills in: resourceVersion, uid, creationTimestamp, generation, selfLink, status and the last-applied annotation. The object is first decoded as the API server reads it (typed round trip and defaults), so an old snapshot becomes what `kubectl get` shows today'
            cand --prefix 'Match --manager names as prefixes'
            cand --neat 'Also drop values only the server''s defaulting put there and no Apply manager owns, as kubectl-neat does (implies --server-fields; built-in kinds only)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;migrate-csa'= {
            cand --live 'More live snapshots (same as the positional arguments)'
            cand --from 'Update managers to migrate. Repeatable; `--from=` migrates none. Default: kubectl-client-side-apply and every Update manager owning the last-applied annotation'
            cand --to 'The Apply manager taking the fields over'
            cand --subresource 'Migrate the entries of this subresource (default: the main resource)'
            cand -f 'Manifests the next server-side apply sends: show its diff after the migration'
            cand --filename 'Manifests the next server-side apply sends: show its diff after the migration'
            cand --schema 'CRD, OpenAPI or SMD schema YAML. Repeatable'
            cand --now 'Time recorded by the apply after migration (RFC 3339)'
            cand -o 'Output: the report, or the migrated objects'
            cand --output 'Output: the report, or the migrated objects'
            cand --kube-version 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -R 'Read directories recursively'
            cand --recursive 'Read directories recursively'
            cand --skip-non-objects 'Skip documents that are not Kubernetes objects (neither apiVersion nor kind)'
            cand --write 'Update the snapshot files in place (atomically)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;update'= {
            cand --live 'The live snapshot holding the object (file, or `-` for stdin)'
            cand --object 'The full new object (a PUT)'
            cand --patch 'A patch to the live object (a PATCH), JSON or YAML'
            cand --type 'The patch type'
            cand --field-manager 'Name of the field manager the update is recorded under'
            cand --subresource 'Write to this subresource (e.g. `status`, `scale`)'
            cand --schema 'CRD, OpenAPI or SMD schema YAML. Repeatable'
            cand --now 'Time recorded in managedFields (RFC 3339). Default: SOURCE_DATE_EPOCH, else the clock'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --kube-version 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults'
            cand --validate 'Unknown or duplicate fields: `strict` (or `true`) refuses them, `warn` prints a `Warning:` per field, `ignore` (or `false`) drops them'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand --normalize-unions 'Normalize union ("one of") fields as KEP-1027 proposed; no API server does (see docs/unions.md)'
            cand --no-defaults 'Show the raw merge: no typed round trip, no built-in or CRD defaults'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;replay'= {
            cand --schema 'Schema documents to add to the built-in kinds (CRDs, OpenAPI documents, SMD schema YAML)'
            cand --kube-version 'Kubernetes version of the cluster to predict for (1.30 … 1.37): its built-in schemas, served API versions and defaults'
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print one JSON report per run instead of text'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;completions'= {
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;man'= {
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;version'= {
            cand --color 'When to colour output: `auto` colours a terminal unless NO_COLOR is set'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kssa;help'= {
            cand apply 'Apply manifests to live-object snapshots and print the results with managedFields'
            cand diff 'Show what applying manifests would change, as a diff per object'
            cand conflicts 'Explain the conflicts an apply would hit and how to resolve them'
            cand managers 'Show who owns what in live objects'
            cand strip-managed 'Remove managedFields (and optionally server-set fields) from objects'
            cand migrate-csa 'Migrate client-side-apply ownership to server-side apply, as kubectl does'
            cand update 'Record a non-apply write (PUT or PATCH) by a field manager'
            cand replay 'Run scenario files of applies and updates, checking expectations'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page (roff)'
            cand version 'Print kssa''s version and the Kubernetes versions it embeds'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kssa;help;apply'= {
        }
        &'kssa;help;diff'= {
        }
        &'kssa;help;conflicts'= {
        }
        &'kssa;help;managers'= {
        }
        &'kssa;help;strip-managed'= {
        }
        &'kssa;help;migrate-csa'= {
        }
        &'kssa;help;update'= {
        }
        &'kssa;help;replay'= {
        }
        &'kssa;help;completions'= {
        }
        &'kssa;help;man'= {
        }
        &'kssa;help;version'= {
        }
        &'kssa;help;help'= {
        }
    ]
    $completions[$command]
}
