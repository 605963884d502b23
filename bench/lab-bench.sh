# Sourced by the bench scripts that measure the lab service from a Java main in src/test (ab-calibration.sh,
# relay-probe.sh): the JDK and Testcontainers settings .ci/run uses, the lab's Java image of the selected set, and
# functions for the lab's jar, an image of it per setting and the test classpath. Run from the project's root.
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH" TESTCONTAINERS_RYUK_DISABLED=${TESTCONTAINERS_RYUK_DISABLED:-true}
# In a container (/.dockerenv) Testcontainers looks for the host's gateway with a pulled image; the engine is local.
if [ -f /.dockerenv ]; then export TESTCONTAINERS_HOST_OVERRIDE=${TESTCONTAINERS_HOST_OVERRIDE:-localhost}; fi
case "${BOTTLENECK_IMAGES:-official}" in
  offline) java_image=bottleneck-kit/temurin:21-jre ;;
  *) java_image=eclipse-temurin:21-jre ;;
esac

# lab_jar DIR: the lab service built, its jar copied to DIR/app.jar.
lab_jar() {
  ./mvnw -B -q -f containers/lab-service/pom.xml -DskipTests package
  cp containers/lab-service/target/lab-service.jar "$1/app.jar"
}

# lab_image DIR TAG SETTINGS: DIR/app.jar in the lab's Dockerfile with the environment SETTINGS (NAME=VALUE ...),
# tagged TAG.
lab_image() {
  { cat containers/lab-service/Dockerfile; echo "ENV $3"; } >"$1/Dockerfile"
  docker build -q --build-arg "JAVA_IMAGE=$java_image" --build-arg CDS=false -t "$2" -f "$1/Dockerfile" "$1" \
    >/dev/null
}

# bench_classpath: the test classes compiled, and their classpath in $classpath (set here, not printed, so that a
# failed compile stops the script).
bench_classpath() {
  ./mvnw -B -q -DskipTests test-compile
  ./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt \
    >/dev/null
  classpath="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
}
