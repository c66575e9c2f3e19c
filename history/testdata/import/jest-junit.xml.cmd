# testdata/run/node/jest copied to a scratch folder (Jest 29), jest-junit's defaults:
npm install --no-save jest-junit@16
JEST_JUNIT_OUTPUT_FILE=jest-junit.xml npx jest --reporters=default --reporters=jest-junit
